// Test support: a hand-built data-parallel run that exercises every chart of the report,
// for the browser test and the README screenshot. `ranks` ranks of 20 steps of ~40 ms:
// the four phases with operators and kernels (a cutlass gemm with its long name, an NCCL
// all-reduce overlapping the backward pass), weights allocated once, activations per step
// freed in backward; rank 2 is the straggler (15 % slower) and leaks 8 MiB a step; the
// last rank's agent lost 12 CUPTI records (the banner must show it).
// Memory samples at each step's end (1 us before it), GPU0's allocator: allocated 448 MiB
// (the weights) plus rank 2's leak so far (8 MiB per step, this step's included), peak
// 784 MiB (weights and the 336 MiB of activations live at the backward pass's start) plus
// the leak of the earlier steps, reserved 1 GiB, 1.25 GiB from step 10 on; host RSS at the
// step boundary 3 GiB + 2 MiB per step.
#ifndef PROF_ANALYZER_REPORT_REPORT_SCENARIO_H_
#define PROF_ANALYZER_REPORT_REPORT_SCENARIO_H_

#include <string>
#include <vector>

namespace prof::analyzer::report::testing {

inline constexpr int kScenarioSteps = 20;

// Writes folder/rank<r>.pb for each rank; returns the paths.
std::vector<std::string> WriteReportScenario(const std::string& folder, int ranks);

}  // namespace prof::analyzer::report::testing

#endif  // PROF_ANALYZER_REPORT_REPORT_SCENARIO_H_
