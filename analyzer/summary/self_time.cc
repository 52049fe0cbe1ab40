#include "analyzer/summary/self_time.h"

namespace prof::analyzer {
namespace {

uint64_t ClippedDifference(uint64_t whole, uint64_t parts) {
  return whole > parts ? whole - parts : 0;
}

}  // namespace

SelfTimes ComputeSelfTimes(const AnalysisContext& context) {
  const std::vector<HostRange>& ranges = context.model->ranges;
  const RangeTree& tree = *context.tree;
  std::vector<uint64_t> children_cpu(ranges.size(), 0);
  std::vector<uint64_t> children_kernel(ranges.size(), 0);
  std::vector<uint64_t> children_device(ranges.size(), 0);
  for (uint32_t index : tree.preorder) {
    const int32_t parent = tree.parent[index];
    if (parent == kNoIndex) continue;
    children_cpu[parent] += ranges[index].end_ns - ranges[index].start_ns;
    children_kernel[parent] += tree.kernel_ns[index];
    children_device[parent] += tree.device_ns[index];
  }
  SelfTimes self;
  self.cpu_ns.assign(ranges.size(), 0);
  self.kernel_ns.assign(ranges.size(), 0);
  self.device_ns.assign(ranges.size(), 0);
  for (uint32_t index : tree.preorder) {
    self.cpu_ns[index] =
        ClippedDifference(ranges[index].end_ns - ranges[index].start_ns, children_cpu[index]);
    self.kernel_ns[index] = ClippedDifference(tree.kernel_ns[index], children_kernel[index]);
    self.device_ns[index] = ClippedDifference(tree.device_ns[index], children_device[index]);
  }
  return self;
}

}  // namespace prof::analyzer
