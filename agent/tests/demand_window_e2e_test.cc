// prof_start / prof_stop / prof_flush / prof_window_file end to end: a program on the
// simulated runtime (demand_window_program) opens and closes windows through the C API
// under each kind of PROF_SCHEDULE; the ranges it names after its steps show which steps
// each run recorded. Expected values follow from the program's script and the interplay
// documented in prof.h, not from the agent.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

struct DemandRun {
  RunResult run;
  TraceSummary trace;
  std::set<std::string> work;  // the "work_<step>" ranges recorded
};

DemandRun RunScript(const std::string& name, const std::string& schedule,
                    const std::string& script) {
  const std::string output = FreshFolder(name);
  RunOptions options;
  options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")},
                         {"PROF_OUTPUT_DIR", output},
                         {"PROF_CUPTI_LIB", FlavourCupti()},
                         {"PROF_SCHEDULE", schedule}};
  DemandRun result;
  result.run = RunProgram(Program("agent/tests/demand_window_program"), {script}, options);
  result.trace = SummarizeFolder(output);
  for (const auto& [range, count] : result.trace.ranges) {
    if (range.rfind("work_", 0) == 0) result.work.insert(range);
  }
  return result;
}

TEST_CASE("PROF_SCHEDULE=off: only what prof_start..prof_stop encloses is recorded") {
  const DemandRun demand = RunScript("off", "off", "kbkkefkbk");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  const std::string& out = demand.run.standard_output;
  CHECK(out.find("start 0\n") != std::string::npos);
  CHECK(out.find("stop 0\n") != std::string::npos);
  // Flushed: window 0's file is finished and named, before the program goes on.
  CHECK(out.find("flush 1 file 1 ") != std::string::npos);
  CHECK(out.find(".window_0.prof.pb\n") != std::string::npos);
  CHECK(out.find("start 1\n") != std::string::npos);
  CHECK(demand.trace.files.size() == 2);
  CHECK(demand.work == std::set<std::string>{"work_1", "work_2", "work_4"});
  CHECK(demand.trace.api_calls.at("cudaMemset") == 3);
  // Steps 1 and 2, then 4 and the step open at exit (5), which window 1 holds until exit.
  CHECK(demand.trace.step_numbers == std::vector<int64_t>{1, 2, 4, 5});
  for (const FileSummary& file : demand.trace.files) {
    CHECK(file.complete);
    CHECK(file.window_origin == 1);  // WINDOW_ORIGIN_API
  }
}

TEST_CASE("no PROF_SCHEDULE: prof_stop ends the record-everything window for good") {
  const DemandRun demand = RunScript("everything", "", "kkekkbkef");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  CHECK(demand.run.standard_output.find("stop 0\nstart 1\nstop 1\nflush 1 file 1 ") !=
        std::string::npos);
  CHECK(demand.trace.files.size() == 2);
  CHECK(demand.work == std::set<std::string>{"work_0", "work_1", "work_4"});
  CHECK(demand.trace.step_numbers == std::vector<int64_t>{0, 1, 4});
}

TEST_CASE("a schedule window overlapped by a demand window is skipped; the next one opens") {
  // closed=2,record=2: windows are steps 2-3 and 6-7. The demand window covers steps 0-2
  // and stops during step 3: 3 is not reopened, 6-7 is recorded by the schedule.
  const DemandRun demand = RunScript("overlap", "closed=2,record=2,repeat=2", "bkkkekkkkkkk");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  CHECK(demand.run.standard_output == "start 0\nstop 0\n");
  CHECK(demand.trace.files.size() == 2);
  CHECK(demand.work == std::set<std::string>{"work_0", "work_1", "work_2", "work_6", "work_7"});
  CHECK(demand.trace.step_numbers == std::vector<int64_t>{0, 1, 2, 6, 7});
}

TEST_CASE("prof_set_state / prof_step_to: the program's states replace the schedule") {
  // No PROF_SCHEDULE: window 0 records from the start; the program's first state (RECORD)
  // ends it and opens window 1; step 3 is RECORD_AND_RETURN, so window 1 ends with it; a
  // step with no state given after that stays CLOSED.
  const DemandRun demand = RunScript("states", "", "kRkEkXkk");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  CHECK(demand.run.standard_output == "state 1\nstep_to 1\nstep_to -1\n");
  CHECK(demand.trace.files.size() == 2);
  CHECK(demand.work == std::set<std::string>{"work_0", "work_1", "work_2", "work_3"});
  CHECK(demand.trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3});
  std::set<int> origins;
  for (const FileSummary& file : demand.trace.files) origins.insert(file.window_origin);
  CHECK(origins == std::set<int>{0, 3});  // the schedule's window 0, the program's window 1
}

TEST_CASE("prof_window_goes_on: 1 only where the next boundary keeps the window open") {
  // Steps 1 and 2 record (1:3): before the boundaries 0->1 (none open), 1->2 (goes on),
  // 2->3 (ends it), 3->4 (none open); then the program's RECORD: goes on past a boundary
  // that keeps it (-1), not past one into CLOSED.
  const DemandRun demand = RunScript("goes_on", "1:3", "gkgkgkgkRgh");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  CHECK(demand.run.standard_output ==
        "goes_on 0\ngoes_on 1\ngoes_on 0\ngoes_on 0\nstate 1\ngoes_on 1\ngoes_on 0\n");
}

TEST_CASE("prof_step_ended: whether the new step records, and the one after it") {
  // 1:3 records steps 1 and 2: the boundaries 0->1 (1 records, 2 will: 3), 1->2 (2
  // records, 3 will not: 1), 2->3 and 3->4 (0). Then the program's RECORD for step 4: a
  // plain boundary keeps it (3); after the step put in RECORD_AND_RETURN comes CLOSED (0).
  const DemandRun demand = RunScript("step_ended", "1:3", "nnnnRnEn");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  CHECK(demand.run.standard_output ==
        "ended 3\nended 1\nended 0\nended 0\nstate 1\nended 3\nstep_to 1\nended 0\n");
  // The steps it ended are recorded as prof_step's are: 1 and 2, then 4 to 6 (the
  // program's window).
  CHECK(demand.trace.step_numbers == std::vector<int64_t>{1, 2, 4, 5, 6});
}

TEST_CASE("dlopened, not preloaded: CUPTI gives the window's kernels and runtime calls") {
  const std::string output = FreshFolder("in_process");
  RunOptions options;
  options.environment = {
      {"PROF_OUTPUT_DIR", output}, {"PROF_CUPTI_LIB", FlavourCupti()}, {"PROF_SCHEDULE", "off"}};
  const RunResult run = RunProgram(Program("agent/tests/in_process_program"),
                                   {Runfile("agent/libprof.so"), "5"}, options);
  INFO(run.standard_output << run.standard_error);
  REQUIRE(run.exit_code == 0);
  CHECK(run.standard_output == "window 0 flush 1\n");
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  // The 5 kernels launched inside the window, from CUPTI; none of the 5 after it.
  CHECK(trace.kernels["in_process_kernel"] == 5);
  // No interposition, but CUPTI's callbacks give the window's runtime calls, each with
  // its correlation id: every kernel finds its launch.
  CHECK(trace.api_calls["cudaLaunchKernel"] == 5);
  CHECK(trace.unknown_references == 0);
}

TEST_CASE("prof_stop with no window open returns -1 and changes nothing") {
  const DemandRun demand = RunScript("nothing_open", "off", "kekf");
  INFO(demand.run.standard_output << demand.run.standard_error);
  REQUIRE(demand.run.exit_code == 0);
  CHECK(demand.run.standard_output == "stop -1\nflush 1 file -1 \n");
  CHECK(demand.trace.files.empty());
}

}  // namespace
}  // namespace prof::testing
