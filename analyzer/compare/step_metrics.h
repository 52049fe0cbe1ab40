// Per-step values of every compare metric for one process, computed from the event model
// with the summaries' own rules (steps, "launched inside a step" = the launching call
// starts inside it, NCCL bus-bandwidth factors). The summaries give totals over the run;
// compare needs the distribution over steps, so this adds the per-step, per-name view.
// Pure function of the analysis context.
#ifndef PROF_ANALYZER_COMPARE_STEP_METRICS_H_
#define PROF_ANALYZER_COMPARE_STEP_METRICS_H_

#include <cstdint>
#include <map>
#include <vector>

#include "analyzer/compare/kernel_name_normalizer.h"
#include "analyzer/compare/metric.h"
#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/window_carry.h"

namespace prof::analyzer::compare {

// A value that a step does not have (bandwidth of a step without collectives).
double MissingValue();
bool IsMissing(double value);

struct ProcessStepMetrics {
  std::vector<int64_t> step_numbers;                // by start time
  std::map<MetricKey, std::vector<double>> series;  // each parallel to step_numbers
};

// Empty when the context has no steps. `carry` (optional) brings the GPU work still running
// from the previous window into this window's gpu_util, and hands this window's on.
ProcessStepMetrics ExtractStepMetrics(const AnalysisContext& context, const NameOptions& names,
                                      WindowCarry* carry = nullptr);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_STEP_METRICS_H_
