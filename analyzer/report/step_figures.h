// One row per step of a recording window: its length, the wall time of each model phase
// inside it, and how long the GPU was busy during it. Feeds the step-time line chart,
// the straggler heat map and the per-step stacked bars.
#ifndef PROF_ANALYZER_REPORT_STEP_FIGURES_H_
#define PROF_ANALYZER_REPORT_STEP_FIGURES_H_

#include <cstdint>
#include <vector>

#include "analyzer/model/trace_model.h"
#include "analyzer/report/report_figures.h"
#include "analyzer/summary/intervals.h"

namespace prof::analyzer::report {

// Appends the window's steps in start order.
void AddStepFigures(const TraceModel& window, std::vector<StepFigures>* steps);

// Length of `merged` (sorted, disjoint) inside [start, end); O(log n + overlapping).
uint64_t CoveredLength(const IntervalList& merged, uint64_t start, uint64_t end);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_STEP_FIGURES_H_
