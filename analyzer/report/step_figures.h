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

// Appends the window's steps in start order. `busy_carry` (optional, one per process, fed
// windows in time order): device work of earlier windows still running at their last
// step's end, joined to this window's; on return, this window's part past its last step.
// A kernel launched in a window's last step and running into the next window's first
// (a window cut into files or slices) then counts in both steps, as in one merged window.
void AddStepFigures(const TraceModel& window, std::vector<StepFigures>* steps,
                    IntervalList* busy_carry = nullptr);

// Length of `merged` (sorted, disjoint) inside [start, end); O(log n + overlapping).
uint64_t CoveredLength(const IntervalList& merged, uint64_t start, uint64_t end);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_STEP_FIGURES_H_
