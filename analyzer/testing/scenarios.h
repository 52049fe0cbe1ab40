// Test support: hand-built traces shared by the summary, render and golden tests, with
// their expected figures worked out in the comments of scenarios.cc.
#ifndef PROF_ANALYZER_TESTING_SCENARIOS_H_
#define PROF_ANALYZER_TESTING_SCENARIOS_H_

#include <cstdint>
#include <string>

namespace prof::analyzer::testing {

// One step [0, 1000) on thread 1 with the four phases, nested operators (linear ⊃
// matmul ⊃ matmul::compute), a second thread's matmul, kernels on two streams that
// overlap, a kernel launched after the step, and one kernel with no launching call.
std::string WriteTrainingStepTrace(const std::string& name);

// One rank of a data-parallel run: 12 steps of `step_ns` (32 samples each) on thread 1,
// each with Dataloader (10 % of the step), Forward with an operator launching a gemm,
// a memcpy user range with its copy, an 8 MiB all-reduce (2 ranks) whose NCCL kernel
// runs 1 ms, and per-step allocations of which the last step's 1 MiB block is never
// freed. Clock anchors: two, with 1 us of drift.
std::string WriteRankTrace(const std::string& name, int32_t rank, uint64_t step_ns);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_SCENARIOS_H_
