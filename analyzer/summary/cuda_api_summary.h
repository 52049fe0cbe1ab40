// CUDA API Summary (like nsys cuda_api_sum): per runtime or driver API name, calls,
// failed calls, Total / Avg / Max / Min / Ratio(%) of the host time spent in the call
// (ratio over all API time) and the standard deviation. Every call counts, inside a step
// or not. Sorted by total, or by the CPU key given.
#ifndef PROF_ANALYZER_SUMMARY_CUDA_API_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_CUDA_API_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/kernel_summary.h"
#include "analyzer/summary/memory_manipulation_summary.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct ApiItem {
  NameId name = 0;
  DurationStats cpu;
  DurationStats gpu;  // unused; keeps SortedOrder's shape
  double sum_of_squares = 0;
  uint64_t failed = 0;
};

struct ApiFigures {
  NamedItems<ApiItem> calls;
  double all_calls_ns = 0;
};

// Adds one window's API calls to `api`, its copy and set calls to `copies` and counts its
// kernel launches with `launches` (any may be null: a table not wanted), in one walk over
// the calls: each walk of its own read every 80-byte call again, memory bound (3-4% of
// the analysis each).
void AddCallFigures(const AnalysisContext& window, ApiFigures* api, CopyFigures* copies,
                    HostLaunchCounter* launches);
std::optional<SummaryTable> CudaApiSummary(const ApiFigures& figures, const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_CUDA_API_SUMMARY_H_
