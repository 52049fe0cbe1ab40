// Device Summary: per GPU, the share of T during which at least one kernel ran (streams
// merged, clipped to the step windows). paddle also prints CPU(Process)/CPU(System)
// utilization, which the trace format does not record, so those rows are absent.
#ifndef PROF_ANALYZER_SUMMARY_DEVICE_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_DEVICE_SUMMARY_H_

#include <cstdint>
#include <map>
#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/device_unions.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct DeviceFigures {
  std::map<uint32_t, uint64_t> kernel_busy_ns;  // by device
  // Summed over the windows with CPU readings (paddle's CPU rows).
  uint64_t cpu_windows = 0;
  uint64_t elapsed_ns = 0;
  uint64_t process_cpu_ns = 0;
  uint64_t system_windows = 0;
  uint64_t system_busy_ticks = 0;
  uint64_t system_idle_ticks = 0;
};

// Adds one window's busy time per device (its kernel unions, with the kernels carried in).
void AddDeviceFigures(const AnalysisContext& window, const DeviceUnions& unions,
                      DeviceFigures* figures);
std::optional<SummaryTable> DeviceSummary(const DeviceFigures& figures,
                                          const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_DEVICE_SUMMARY_H_
