#include "analyzer/summary/device_summary.h"


#include "absl/strings/str_cat.h"

namespace prof::analyzer {

void AddDeviceFigures(const AnalysisContext& window, const DeviceUnions& unions,
                      DeviceFigures* figures) {
  for (const TraceModel::CpuWindow& cpu : window.model->cpu_windows) {
    ++figures->cpu_windows;
    figures->elapsed_ns += cpu.close.host_monotonic_ns() - cpu.open.host_monotonic_ns();
    if (cpu.close.process_cpu_ns() >= cpu.open.process_cpu_ns()) {
      figures->process_cpu_ns += cpu.close.process_cpu_ns() - cpu.open.process_cpu_ns();
    }
    if (cpu.open.system_known() && cpu.close.system_known() &&
        cpu.close.system_busy_ticks() >= cpu.open.system_busy_ticks() &&
        cpu.close.system_idle_ticks() >= cpu.open.system_idle_ticks()) {
      ++figures->system_windows;
      figures->system_busy_ticks += cpu.close.system_busy_ticks() - cpu.open.system_busy_ticks();
      figures->system_idle_ticks += cpu.close.system_idle_ticks() - cpu.open.system_idle_ticks();
    }
  }
  for (const auto& [device, busy] : unions.kernels_by_device)
    figures->kernel_busy_ns[device] += TotalLength(busy.intervals);
}

std::optional<SummaryTable> DeviceSummary(const DeviceFigures& figures,
                                          const RenderContext& context) {
  SummaryTable table;
  table.key = "device";
  table.title = "Device Summary";
  table.time_unit_line = false;
  table.columns = {{"Device", "device", 30, false},
                   {"Utilization (%)", "utilization_pct", 20, false}};
  if (figures.cpu_windows > 0) {
    table.AddRow({Cell::Text("CPU(Process)"),
                  Cell::Ratio(SafeRatio(figures.process_cpu_ns, figures.elapsed_ns))});
  }
  const uint64_t system_ticks = figures.system_busy_ticks + figures.system_idle_ticks;
  if (system_ticks > 0) {
    table.AddRow({Cell::Text("CPU(System)"),
                  Cell::Ratio(SafeRatio(figures.system_busy_ticks,
                                        figures.system_busy_ticks + figures.system_idle_ticks))});
  }
  for (const auto& [device, busy] : figures.kernel_busy_ns) {
    table.AddRow({Cell::Text(absl::StrCat("GPU", device)),
                  Cell::Ratio(SafeRatio(busy, context.totals->total_ns))});
  }
  if (table.rows.empty()) return std::nullopt;
  table.ending = TableEnding::kNote;
  table.note = {
      "CPU(Process) Utilization = CPU time of this process over all cores / elapsed time, from "
      "each",
      "window's open to its close, so it can reach 100% x the number of cores.",
      "CPU(System) Utilization = busy time of all cores (/proc/stat) / (busy + idle time), same "
      "spans.",
      "GPU Utilization = time during which at least one kernel of this process ran on the GPU",
      "(streams merged) / elapsed time of the profiled steps (T)."};
  if (figures.cpu_windows == 0)
    table.note.push_back(
        "These files hold no CPU readings (an older agent wrote them), so no CPU rows.");
  if (figures.system_windows > 0 && system_ticks == 0) {
    table.note.push_back(
        "No CPU(System) row: the windows are shorter than one /proc/stat tick (10 ms).");
  }
  return table;
}

}  // namespace prof::analyzer
