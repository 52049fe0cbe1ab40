// Model Summary: ProfileStep and the top-most Dataloader / Forward / Backward /
// Optimization ranges (a phase nested in another phase is hidden, as in paddle), with
// CPU time (sum of durations, ratio over T) and kernel time launched inside (ratio over
// the steps' kernel time G), and the Others row (T - phases, G - phases; may be negative).
// Self CPU / Self GPU columns (time minus the children's) are in JSON, and in text with
// --self.
#ifndef PROF_ANALYZER_SUMMARY_MODEL_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_MODEL_SUMMARY_H_

#include <array>
#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// Per-phase totals, also used by the Overview's phase rows.
struct ModelPhaseTotals {
  // Indexed by RangeType value for kProfileStep .. kOptimization.
  std::array<DurationStats, 5> cpu;
  std::array<DurationStats, 5> gpu;
  // Self time (self_time.h): CPU minus children, kernels launched by the range's own calls.
  std::array<DurationStats, 5> self_cpu;
  std::array<DurationStats, 5> self_gpu;
};

// Adds one window's steps and top-level phases.
void AddModelPhaseTotals(const AnalysisContext& window, ModelPhaseTotals* totals);

std::optional<SummaryTable> ModelSummary(const ModelPhaseTotals& totals,
                                         const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_MODEL_SUMMARY_H_
