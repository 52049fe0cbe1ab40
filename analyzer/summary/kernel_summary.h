// Kernel Summary: every kernel (also those whose launching call is unknown), grouped by
// demangled name: calls and GPU Total / Avg / Max / Min over the sum of all kernels.
// Sorted by total, or by GPUAvg / GPUMax / GPUMin; CPU keys sort by total (paddle).
#ifndef PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct KernelFigures {
  NamedItems<NamedItem> kernels;  // gpu only
  double all_kernels_ns = 0;
};

// Adds one window's kernels.
void AddKernelFigures(const AnalysisContext& window, KernelFigures* figures);
std::optional<SummaryTable> KernelSummary(const KernelFigures& figures,
                                          const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
