// Calls reach the agent however the program loads its CUDA runtime: through an
// RTLD_LOCAL dlopen chain, or with several runtime copies in one process, each caller
// reaching its own copy.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

TEST_CASE("a runtime loaded through an RTLD_LOCAL dlopen chain is still intercepted") {
  const std::string output = FreshFolder("rtld_local");
  const RunResult run = RunProgram(Runfile("agent/tests/rtld_local_program"),
                                   {Program("agent/tests/local_launcher.so")}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  CHECK(trace.launches["local_library_kernel"] == 25);
  CHECK(trace.kernels["local_library_kernel"] == 25);
}

// Three distinct runtime copies in one process (testdata/counting_runtime): each caller's
// calls and kernel registrations must reach the copy they reach without the agent, both
// while the agent is idle and while it records.
TEST_CASE("two runtimes and a library exporting its own: each caller reaches its own copy") {
  const std::vector<std::string> arguments = {
      Runfile("testdata/counting_runtime/runtime_b_user.so"),
      Runfile("testdata/counting_runtime/static_exporter.so")};
  const std::string program = Runfile("testdata/counting_runtime/two_runtimes_program");
  SECTION("without the agent (the expectation itself)") {
    const RunResult run = RunProgram(program, arguments, RunOptions{});
    INFO(run.standard_error);
    CHECK(run.exit_code == 0);
  }
  SECTION("agent idle (schedule closed)") {
    const std::string output = FreshFolder("two_runtimes_closed");
    const RunResult run = RunProgram(
        program, arguments, UnderAgent(output, {{"PROF_SCHEDULE", "skip_first=1000000,record=1"}}));
    INFO(run.standard_error);
    CHECK(run.exit_code == 0);
  }
  SECTION("agent recording: every caller's launches and collectives recorded once") {
    const std::string output = FreshFolder("two_runtimes_record");
    std::vector<std::string> recording = arguments;
    recording.push_back("2");  // each copy answers the cudaGetDevice of its own malloc/free
    const RunResult run = RunProgram(program, recording, UnderAgent(output));
    INFO(run.standard_error);
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    // 2 threads per caller, each launching both kernels 3 (A), 5 (B) or 7 (S) times.
    CHECK(trace.launches["a_one"] == 6);
    CHECK(trace.launches["a_two"] == 6);
    CHECK(trace.launches["b_one"] == 10);
    CHECK(trace.launches["b_two"] == 10);
    CHECK(trace.launches["s_one"] == 14);
    CHECK(trace.launches["s_two"] == 14);
    CHECK(trace.api_calls["cudaMalloc"] == 6);
    uint64_t nccl_calls = 0;
    for (const auto& [operation, count] : trace.nccl_calls) nccl_calls += count;
    CHECK(nccl_calls == 6);
  }
}

}  // namespace
}  // namespace prof::testing
