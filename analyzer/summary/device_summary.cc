#include "analyzer/summary/device_summary.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"

namespace prof::analyzer {

void AddDeviceFigures(const AnalysisContext& window, WindowCarry* carry, DeviceFigures* figures) {
  std::map<uint32_t, IntervalList> kernels;  // by device
  for (uint32_t device : carry->CarriedDevices()) kernels[device];
  for (const DeviceActivity& activity : window.model->device_activities) {
    if (activity.kind != DeviceKind::kKernel) continue;
    kernels[activity.device].push_back({activity.start_ns, activity.end_ns});
  }
  for (auto& [device, own] : kernels) {
    const ClippedUnion busy = carry->Union(window, UnionKind::kKernelsByDevice, std::move(own), device);
    figures->kernel_busy_ns[device] += TotalLength(busy.intervals);
  }
}

std::optional<SummaryTable> DeviceSummary(const DeviceFigures& figures, const RenderContext& context) {
  SummaryTable table;
  table.key = "device";
  table.title = "Device Summary";
  table.time_unit_line = false;
  table.columns = {{"Device", "device", 30, false}, {"Utilization (%)", "utilization_pct", 20, false}};
  for (const auto& [device, busy] : figures.kernel_busy_ns) {
    table.AddRow({Cell::Text(absl::StrCat("GPU", device)),
                  Cell::Ratio(SafeRatio(busy, context.totals->total_ns))});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "GPU Utilization = time during which at least one kernel of this process ran on the GPU",
      "(streams merged) / elapsed time of the profiled steps (T).",
      "CPU utilization is not recorded by the agent, so CPU rows are not shown."};
  return table;
}

}  // namespace prof::analyzer
