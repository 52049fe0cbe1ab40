// Kernel Summary: every kernel (also those whose launching call is unknown), grouped by
// demangled name: calls and GPU Total / Avg / Max / Min over the sum of all kernels.
// Sorted by total, or by GPUAvg / GPUMax / GPUMin; CPU keys sort by total (paddle).
#ifndef PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

std::optional<SummaryTable> KernelSummary(const AnalysisContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
