// Which steps a real program's trace holds under PROF_SCHEDULE (its own words and
// torch.profiler's) and PROF_STEP_MARKER, on the simulated CUDA platform.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/truth_file.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

TEST_CASE("PROF_SCHEDULE=1:4 records exactly steps 1, 2 and 3") {
  const std::string output = FreshFolder("schedule");
  const std::string truth_path = output + "/../schedule_truth.json";
  const RunResult run =
      RunProgram(Program("testdata/workloads/train"), {"--steps", "6", "--truth", truth_path},
                 UnderAgent(output, {{"PROF_SCHEDULE", "1:4"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].complete);
  CHECK(trace.step_numbers == std::vector<int64_t>{1, 2, 3});
  uint64_t launches = 0;
  for (int step = 1; step <= 3; ++step) launches += truth.StepNumber(step, {"kernels", "count"});
  CHECK(Total(trace.launches) == launches);
  CHECK(trace.ranges["Forward"] == 3);
}

TEST_CASE("a schedule with repeat writes one complete file per window") {
  const std::string output = FreshFolder("windows");
  const RunResult run =
      RunProgram(Program("testdata/workloads/train"), {"--steps", "9"},
                 UnderAgent(output, {{"PROF_SCHEDULE", "closed=1,ready=1,record=2,repeat=2"}}));
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 2);
  CHECK(trace.files[0].complete);
  CHECK(trace.files[1].complete);
  CHECK(trace.files[0].window_index == 0);
  CHECK(trace.files[1].window_index == 1);
  CHECK(trace.step_numbers == std::vector<int64_t>{2, 3, 6, 7});
}

TEST_CASE("torch.profiler's schedule words record the steps torch.profiler would") {
  // wait=1, warmup=1, active=2, repeat=2 (by hand from torch's schedule_fn): steps 0 NONE,
  // 1 WARMUP, 2-3 RECORD, 4 NONE, 5 WARMUP, 6-7 RECORD, then NONE.
  const std::string output = FreshFolder("torch_schedule");
  const RunResult run =
      RunProgram(Program("testdata/workloads/train"), {"--steps", "10"},
                 UnderAgent(output, {{"PROF_SCHEDULE", "wait=1,warmup=1,active=2,repeat=2"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 2);
  CHECK(trace.step_numbers == std::vector<int64_t>{2, 3, 6, 7});
}

TEST_CASE("a schedule that cannot be read records nothing and says so in one line") {
  const std::string output = FreshFolder("refused_schedule");
  const RunResult run = RunProgram(Program("testdata/workloads/train"), {"--steps", "4"},
                                   UnderAgent(output, {{"PROF_SCHEDULE", "wait=1,active=0"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  CHECK(run.standard_error.find("PROF_SCHEDULE='wait=1,active=0' active is not in "
                                "1..1000000000; using no step (nothing is recorded)") !=
        std::string::npos);
  CHECK(std::count(run.standard_error.begin(), run.standard_error.end(), '\n') == 1);
  CHECK(SummarizeFolder(output).files.empty());
}

TEST_CASE("PROF_STEP_MARKER rules end steps in programs that mark none") {
  SECTION("every call of an API") {
    const std::string output = FreshFolder("marker_api");
    const RunResult run =
        RunProgram(Program("agent/tests/lifecycle_program"), {"normal", "4", "nosteps"},
                   UnderAgent(output, {{"PROF_STEP_MARKER", "api:cudaDeviceSynchronize"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    // One synchronize per loop: steps 0..3, then the step open at exit.
    CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3, 4});
  }
  SECTION("every launch of a matching kernel, with a schedule") {
    const std::string output = FreshFolder("marker_kernel");
    const RunResult run = RunProgram(
        Program("agent/tests/lifecycle_program"), {"normal", "4", "nosteps"},
        UnderAgent(output, {{"PROF_STEP_MARKER", "kernel:lifecycle_*"}, {"PROF_SCHEDULE", "2:5"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    // 40 launches, each ending a step; steps 2, 3 and 4 are recorded, one launch each.
    CHECK(trace.step_numbers == std::vector<int64_t>{2, 3, 4});
    CHECK(trace.launches["lifecycle_kernel"] == 3);
  }
}

}  // namespace
}  // namespace prof::testing
