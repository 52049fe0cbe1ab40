// PROF_STEP_MARKER=kernel:GLOB matches kernels that a program's DT_NEEDED library
// registered before libprof's constructor read the rule.
#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

TEST_CASE("kernel: rule, kernel registered by a linked library before the agent started") {
  const std::string output = FreshFolder("early_marker");
  RunOptions options;
  options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")},
                         {"PROF_OUTPUT_DIR", output},
                         {"PROF_CUPTI_LIB", FlavourCupti()},
                         {"PROF_STEP_MARKER", "kernel:early_marker_*"}};
  const RunResult run = RunProgram(Program("agent/tests/early_marker_program"), {"4"}, options);
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  // Each of the 4 launches ends a step (steps 0..3), then the step open at exit (4).
  CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3, 4});
  CHECK(trace.launches["early_marker_kernel"] == 4);
}

}  // namespace
}  // namespace prof::testing
