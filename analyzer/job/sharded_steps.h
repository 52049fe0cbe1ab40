// AnalyzeSteps (straggler_analysis.h) over processes, as the collectives are analyzed
// (sharded_collectives.h): each step number's records (every rank's compute in it) go to
// the process owning that number, which finds its slowest rank and each rank's excess;
// each rank's excesses are summed on its fitter (rank index % processes) in step-number
// order, as in one process. Process 0 gets the per-rank and per-step results only.
#ifndef PROF_ANALYZER_JOB_SHARDED_STEPS_H_
#define PROF_ANALYZER_JOB_SHARDED_STEPS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyzer/job/exchange.h"
#include "analyzer/job/straggler_analysis.h"
#include "analyzer/summary/collective_table.h"

namespace prof::analyzer {

struct StepShard {
  uint32_t index = 0;  // the rank's, in the job
  const std::vector<StepRecord>* steps = nullptr;
};

// Called by every process with its ranks' steps; on process 0 fills `analysis`'s
// compute_per_step_ns, worst_steps and stragglers as AnalyzeSteps does for the whole job.
void AnalyzeStepsSharded(Exchange& exchange, const std::vector<StepShard>& ranks, size_t rank_count,
                         StragglerAnalysis* analysis);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_SHARDED_STEPS_H_
