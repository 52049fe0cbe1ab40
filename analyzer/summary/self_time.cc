#include "analyzer/summary/self_time.h"

#include <memory>
#include <utility>

namespace prof::analyzer {
namespace {

uint64_t ClippedDifference(uint64_t whole, uint64_t parts) {
  return whole > parts ? whole - parts : 0;
}

}  // namespace

const SelfTimes& SelfTimesOf(const AnalysisContext& context) {
  if (context.self_times) return *context.self_times;
  const std::vector<HostRange>& ranges = context.model->ranges;
  const RangeTree& tree = *context.tree;
  // The children's sums are gathered in the result's own vectors and turned into self
  // times in place: three vectors of ranges.size(), not six. In reverse pre-order every
  // range comes after all of its descendants, so one sweep finishes a range's children's
  // sums before it reaches the range itself.
  auto self = std::make_shared<SelfTimes>();
  self->cpu_ns.assign(ranges.size(), 0);
  self->kernel_ns.assign(ranges.size(), 0);
  self->device_ns.assign(ranges.size(), 0);
  for (auto it = tree.preorder.rbegin(); it != tree.preorder.rend(); ++it) {
    const uint32_t index = *it;
    const uint64_t cpu_ns = ranges[index].end_ns - ranges[index].start_ns;
    self->cpu_ns[index] = ClippedDifference(cpu_ns, self->cpu_ns[index]);
    self->kernel_ns[index] = ClippedDifference(tree.kernel_ns[index], self->kernel_ns[index]);
    self->device_ns[index] = ClippedDifference(tree.device_ns[index], self->device_ns[index]);
    const int32_t parent = tree.parent[index];
    if (parent == kNoIndex) continue;
    self->cpu_ns[parent] += cpu_ns;
    self->kernel_ns[parent] += tree.kernel_ns[index];
    self->device_ns[parent] += tree.device_ns[index];
  }
  context.self_times = std::move(self);
  return *context.self_times;
}

}  // namespace prof::analyzer
