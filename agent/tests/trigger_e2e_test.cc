// On-demand capture end to end: jobs on the simulated runtime run under the agent with
// PROF_SCHEDULE=off (nothing recorded), and `profanalyze trigger` makes them record the
// next N steps or S seconds, with no restart. The expected windows follow from the
// request and the jobs' step length, not from the agent.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <fstream>
#include <string>
#include <thread>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

// A job running in the background (RunProgram on a thread), and its pid once it has begun.
class Job {
 public:
  Job(const std::string& name, const std::string& control, int steps, int step_ms,
      const std::map<std::string, std::string>& extra = {})
      : output_(FreshFolder(name)), ready_(output_ + "/ready.pid") {
    RunOptions options;
    options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")},
                           {"PROF_OUTPUT_DIR", output_},
                           {"PROF_CUPTI_LIB", FlavourCupti()},
                           {"PROF_SCHEDULE", "off"},
                           {"PROF_CONTROL_DIR", control}};
    options.environment.insert(extra.begin(), extra.end());
    thread_ = std::thread([this, options, steps, step_ms] {
      run_ = RunProgram(Program("agent/tests/trigger_target_program"),
                        {std::to_string(steps), std::to_string(step_ms), ready_}, options);
    });
  }
  // The job's pid, once it has made its first step (0 if it never does within 20 s).
  int WaitReady() {
    for (int i = 0; i < 2000; ++i) {
      std::ifstream file(ready_);
      int pid = 0;
      if (file >> pid) return pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return 0;
  }
  const RunResult& Finish() {
    thread_.join();
    return run_;
  }
  const std::string& output() const { return output_; }

 private:
  std::string output_;
  std::string ready_;
  std::thread thread_;
  RunResult run_;
};

RunResult Trigger(const std::vector<std::string>& arguments) {
  std::vector<std::string> all = {"trigger"};
  all.insert(all.end(), arguments.begin(), arguments.end());
  return RunProgram(Runfile("analyzer/cli/profanalyze"), all, RunOptions());
}

// Consecutive step numbers.
bool Consecutive(const std::vector<int64_t>& steps) {
  for (size_t i = 1; i < steps.size(); ++i) {
    if (steps[i] != steps[i - 1] + 1) return false;
  }
  return true;
}

TEST_CASE("trigger --steps 3: a running job records exactly its next 3 steps") {
  const std::string control = FreshFolder("control_steps");
  chmod(control.c_str(), 0700);
  Job job("trigger_steps", control, 150, 20);
  const int pid = job.WaitReady();
  REQUIRE(pid > 0);
  const RunResult trigger =
      Trigger({std::to_string(pid), "--steps", "3", "--control-dir", control});
  INFO(trigger.standard_output << trigger.standard_error);
  CHECK(trigger.exit_code == 0);
  const RunResult& run = job.Finish();
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TraceSummary trace = SummarizeFolder(job.output());
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.step_numbers.size() == 3);
  CHECK(Consecutive(trace.step_numbers));
  CHECK(trace.api_calls.at("cudaMemset") == 3);
  CHECK(trace.files[0].complete);
  CHECK(trace.files[0].window_origin == 2);  // WINDOW_ORIGIN_TRIGGER
}

TEST_CASE("trigger --seconds: a job records for that long, then stops") {
  const std::string control = FreshFolder("control_seconds");
  chmod(control.c_str(), 0700);
  Job job("trigger_seconds", control, 100, 20);
  const int pid = job.WaitReady();
  REQUIRE(pid > 0);
  CHECK(Trigger({std::to_string(pid), "--seconds", "0.5", "--control-dir", control}).exit_code ==
        0);
  const RunResult& run = job.Finish();
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TraceSummary trace = SummarizeFolder(job.output());
  REQUIRE(trace.files.size() == 1);
  // Steps last >= 20 ms each: 0.5 s holds at most 26 step boundaries; a loaded machine
  // may make them longer, but not by 5x.
  CHECK(trace.step_numbers.size() >= 5);
  CHECK(trace.step_numbers.size() <= 26);
  CHECK(Consecutive(trace.step_numbers));
  CHECK(trace.files[0].window_origin == 2);  // WINDOW_ORIGIN_TRIGGER
}

TEST_CASE("trigger --flight: a job under PROF_FLIGHT=1 writes one flight dump, no window") {
  const std::string control = FreshFolder("control_flight");
  chmod(control.c_str(), 0700);
  Job job("trigger_flight", control, 60, 20, {{"PROF_FLIGHT", "1"}});
  const int pid = job.WaitReady();
  REQUIRE(pid > 0);
  const RunResult trigger = Trigger({std::to_string(pid), "--flight", "--control-dir", control});
  INFO(trigger.standard_output << trigger.standard_error);
  CHECK(trigger.exit_code == 0);
  CHECK(trigger.standard_output == "triggered " + std::to_string(pid) + ": flight=1\n");
  const RunResult& run = job.Finish();
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  std::vector<std::string> dumps;
  for (const auto& entry : std::filesystem::directory_iterator(job.output())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".prof.pb") != std::string::npos) dumps.push_back(entry.path().string());
  }
  REQUIRE(dumps.size() == 1);
  CHECK(dumps[0].find(".flight_0.prof.pb") != std::string::npos);
  const RunResult info =
      RunProgram(Runfile("analyzer/cli/profanalyze"), {"info", dumps[0]}, RunOptions());
  INFO(info.standard_output);
  CHECK(info.standard_output.find(
            "flight dump: trigger: profanalyze trigger --flight; 0 NCCL call(s) seen") !=
        std::string::npos);
}

TEST_CASE("trigger --all: every job of this user records") {
  const std::string control = FreshFolder("control_all");
  chmod(control.c_str(), 0700);
  Job first("trigger_all_1", control, 150, 20);
  Job second("trigger_all_2", control, 150, 20);
  REQUIRE(first.WaitReady() > 0);
  REQUIRE(second.WaitReady() > 0);
  const RunResult trigger = Trigger({"--all", "--steps", "2", "--control-dir", control});
  INFO(trigger.standard_output << trigger.standard_error);
  for (Job* job : {&first, &second}) {
    REQUIRE(job->Finish().exit_code == 0);
    const TraceSummary trace = SummarizeFolder(job->output());
    CHECK(trace.files.size() == 1);
    CHECK(trace.step_numbers.size() == 2);
  }
}

TEST_CASE("trigger refuses a control folder others can enter") {
  const std::string control = FreshFolder("control_open");
  chmod(control.c_str(), 0755);
  const RunResult trigger =
      Trigger({std::to_string(getpid()), "--steps", "1", "--control-dir", control});
  CHECK(trigger.exit_code == 1);
  CHECK(trigger.standard_error.find("mode 0700") != std::string::npos);
}

}  // namespace
}  // namespace prof::testing
