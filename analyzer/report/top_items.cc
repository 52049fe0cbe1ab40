#include "analyzer/report/top_items.h"

#include <algorithm>

namespace prof::analyzer::report {
namespace {

void AddRun(NamedTime* item, uint64_t gpu_ns, uint64_t cpu_ns) {
  item->max_ns = item->calls == 0 ? gpu_ns : std::max(item->max_ns, gpu_ns);
  item->min_ns = item->calls == 0 ? gpu_ns : std::min(item->min_ns, gpu_ns);
  ++item->calls;
  item->gpu_ns += gpu_ns;
  item->cpu_ns += cpu_ns;
}

}  // namespace

void AddKernelTimes(const TraceModel& window, std::map<std::string, NamedTime>* kernels) {
  for (const DeviceActivity& activity : window.device_activities) {
    if (activity.kind != DeviceKind::kKernel || activity.end_ns < activity.start_ns) continue;
    AddRun(&(*kernels)[std::string(window.names.Get(activity.name))],
           activity.end_ns - activity.start_ns, 0);
  }
}

void AddOperatorTimes(const TraceModel& window, const RangeTree& tree,
                      std::map<std::string, NamedTime>* operators) {
  for (size_t index = 0; index < window.ranges.size(); ++index) {
    const HostRange& range = window.ranges[index];
    if (range.type != RangeType::kOperator || range.end_ns < range.start_ns) continue;
    const uint64_t gpu_ns = index < tree.kernel_ns.size() ? tree.kernel_ns[index] : 0;
    AddRun(&(*operators)[std::string(window.names.Get(range.name))], gpu_ns,
           range.end_ns - range.start_ns);
  }
}

}  // namespace prof::analyzer::report
