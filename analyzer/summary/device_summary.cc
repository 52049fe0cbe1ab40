#include "analyzer/summary/device_summary.h"

#include <set>

#include "absl/strings/str_cat.h"

namespace prof::analyzer {

IntervalList DeviceActivityUnion(const AnalysisContext& context, DeviceKind kind, int device) {
  IntervalList intervals;
  for (const DeviceActivity& activity : context.model->device_activities) {
    if (activity.kind != kind) continue;
    if (device >= 0 && activity.device != static_cast<uint32_t>(device)) continue;
    intervals.push_back({activity.start_ns, activity.end_ns});
  }
  return IntersectIntervals(MergeIntervals(std::move(intervals)), context.window);
}

void AddDeviceFigures(const AnalysisContext& window, DeviceFigures* figures) {
  std::set<uint32_t> devices;
  for (const DeviceActivity& activity : window.model->device_activities) {
    if (activity.kind == DeviceKind::kKernel) devices.insert(activity.device);
  }
  for (uint32_t device : devices) {
    figures->kernel_busy_ns[device] += TotalLength(DeviceActivityUnion(window, DeviceKind::kKernel, device));
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
