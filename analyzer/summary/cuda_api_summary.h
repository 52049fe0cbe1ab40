// CUDA API Summary (like nsys cuda_api_sum): per runtime or driver API name, calls,
// failed calls, Total / Avg / Max / Min / Ratio(%) of the host time spent in the call
// (ratio over all API time) and the standard deviation. Every call counts, inside a step
// or not. Sorted by total, or by the CPU key given.
#ifndef PROF_ANALYZER_SUMMARY_CUDA_API_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_CUDA_API_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

std::optional<SummaryTable> CudaApiSummary(const AnalysisContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_CUDA_API_SUMMARY_H_
