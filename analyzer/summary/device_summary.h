// Device Summary: per GPU, the share of T during which at least one kernel ran (streams
// merged, clipped to the step windows). paddle also prints CPU(Process)/CPU(System)
// utilization, which the trace format does not record, so those rows are absent.
#ifndef PROF_ANALYZER_SUMMARY_DEVICE_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_DEVICE_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

std::optional<SummaryTable> DeviceSummary(const AnalysisContext& context);

// Union of the activities of `kind` (all devices and streams), clipped to the window.
IntervalList DeviceActivityUnion(const AnalysisContext& context, DeviceKind kind,
                                 int device = -1);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_DEVICE_SUMMARY_H_
