// The host-process contract (DESIGN.md) as a program sees it: no signal handler or file
// descriptor of the agent's, its errno untouched by every hook, and bad settings costing
// one line of stderr, never the run.
#include <signal.h>

#include <algorithm>
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

TEST_CASE("the program sees no handler and no descriptor of the agent's") {
  // At start (the agent's constructor has run) nothing differs from a plain run; while
  // recording, SIGINT is still the program's (SIG_DFL here). Oracle: the plain run.
  const std::string output = FreshFolder("report");
  RunOptions plain;
  const RunResult expected =
      RunProgram(Program("agent/tests/lifecycle_program"), {"report"}, plain);
  const RunResult run =
      RunProgram(Program("agent/tests/lifecycle_program"), {"report"}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(expected.exit_code == 0);
  CHECK(expected.standard_output.find("start: Terminated default") != std::string::npos);
  CHECK(run.exit_code == 0);
  CHECK(run.standard_output == expected.standard_output);
  CHECK(SummarizeFolder(output).launches["lifecycle_kernel"] == 40);
}

TEST_CASE("errno: every hook, NVTX callback and C API call leaves the program's errno") {
  // Recording from the first call (the session starts inside it), never recording, a
  // cycling schedule (window boundaries inside prof_step and NVTX pops), and a session
  // start whose CUPTI cannot be loaded (failing opens inside the first call).
  struct Case {
    const char* schedule;
    const char* cupti;
  };
  const Case cases[] = {{"", nullptr},
                        {"skip_first=1000,record=1", nullptr},
                        {"closed=1,ready=1,record=2", nullptr},
                        {"", "/nonexistent/libcupti.so"}};
  for (const Case& c : cases) {
    const std::string output = FreshFolder("errno");
    std::map<std::string, std::string> extra;
    if (*c.schedule) extra["PROF_SCHEDULE"] = c.schedule;
    if (c.cupti) extra["PROF_CUPTI_LIB"] = c.cupti;
    const char* schedule = c.schedule;
    const RunResult run =
        RunProgram(Program("agent/tests/errno_program"), {}, UnderAgent(output, extra));
    INFO("PROF_SCHEDULE=" << schedule << "\n" << run.standard_output << run.standard_error);
    CHECK(run.exit_code == 0);
    CHECK(run.standard_output.find(", 0 changed errno") != std::string::npos);
    if (!*c.schedule && !c.cupti) {  // every step recorded: the whole ranges too
      TraceSummary trace = SummarizeFolder(output);
      CHECK(trace.ranges["aten::mm"] == 8);
      CHECK(trace.ranges["whole_phase"] == 8);
      CHECK(trace.ranges["Optimizer.step#SGD.step"] == 8);  // prof_user_range
      CHECK(trace.ranges["aten::addmm"] == 8);              // prof_operator_range_detail
      CHECK(trace.ranges["aten::bmm"] == 8);                // prof_operator_push_detail + pop
      CHECK(trace.ranges["aten::relu"] == 8);               // prof_operator_ranges, two a call
      CHECK(trace.ranges["aten::t"] == 8);
    }
  }
}

TEST_CASE("bad settings: one line naming the problem, and the program runs on") {
  SECTION("a bad value") {
    const std::string output = FreshFolder("bad_value");
    const RunResult run = RunProgram(Program("agent/tests/lifecycle_program"), {"normal"},
                                     UnderAgent(output, {{"PROF_BUFFER_MB", "lots"}}));
    CHECK(run.exit_code == 0);
    CHECK(run.standard_error ==
          "libprof: PROF_BUFFER_MB='lots' is not a number of MiB in 1..65536; using 128\n");
    CHECK(SummarizeFolder(output).files.size() == 1);
  }
  SECTION("an output folder that cannot be written") {
    const RunResult run = RunProgram(Program("agent/tests/lifecycle_program"), {"normal"},
                                     UnderAgent("/proc/no/such/folder"));
    CHECK(run.exit_code == 0);
    CHECK(std::count(run.standard_error.begin(), run.standard_error.end(), '\n') == 1);
    CHECK(run.standard_error.find("cannot write the trace") != std::string::npos);
  }
  SECTION("PROF_DISABLE=1 records nothing") {
    const std::string output = FreshFolder("disabled");
    const RunResult run = RunProgram(Program("agent/tests/lifecycle_program"), {"normal"},
                                     UnderAgent(output, {{"PROF_DISABLE", "1"}}));
    CHECK(run.exit_code == 0);
    CHECK(SummarizeFolder(output).files.empty());
  }
}

}  // namespace
}  // namespace prof::testing
