#include "analyzer/summary/setup_summary.h"

namespace prof::analyzer {

void AddSetupFigures(const AnalysisContext& window, SetupFigures* figures) {
  if (window.setup_step == kNoIndex) return;
  const TraceModel& model = *window.model;
  const HostRange& step = model.ranges[window.setup_step];
  figures->present = true;
  figures->step = std::string(model.names.Get(step.name));
  figures->duration_ns += step.end_ns - step.start_ns;
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.kind != DeviceKind::kKernel || activity.api_call == kNoIndex) continue;
    const uint64_t launched = model.api_calls[activity.api_call].start_ns;
    if (launched < step.start_ns || launched >= step.end_ns) continue;
    figures->kernel_ns += activity.end_ns - activity.start_ns;
    ++figures->kernels;
  }
}

std::optional<SummaryTable> SetupSummary(const SetupFigures& figures) {
  if (!figures.present) return std::nullopt;
  SummaryTable table;
  table.key = "setup";
  table.title = "Set-up Summary";
  table.columns = {{"Name", "name", 16},
                   {"CPU Time", "cpu_ns", 12},
                   {"Kernels", "kernels", 8},
                   {"GPU Kernel Time", "gpu_kernel_ns", 16}};
  table.AddRow({Cell::Text(figures.step + " (set-up)"),
                Cell::Time(static_cast<double>(figures.duration_ns)),
                Cell::Count(static_cast<double>(figures.kernels)),
                Cell::Time(static_cast<double>(figures.kernel_ns))});
  table.ending = TableEnding::kNote;
  table.note = {
      "Recorded with no schedule, step 0 runs from the program's start (imports, model building) "
      "to",
      "the first step boundary: it is left out of the per-step tables (Device, Overview, Model, "
      "Perf).",
      "profanalyze --include-setup counts it as a step."};
  return table;
}

}  // namespace prof::analyzer
