// libprof.so preloaded into real programs on the simulated CUDA platform: the trace must
// hold exactly what the program did (the workloads' ground truth): launches, copies,
// ranges, marks, steps, device records, stacks, and what PROF_ACTIVITIES selects. Other
// topics: schedule_e2e_test.cc, exit_paths_e2e_test.cc, host_contract_e2e_test.cc,
// interception_e2e_test.cc, threads_e2e_test.cc.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/truth_file.h"
#include "agent/tests/under_agent.h"
#include "proto/schema_enums.h"

namespace prof::testing {
namespace {

std::map<std::string, uint64_t> Merge(std::map<std::string, uint64_t> a,
                                      const std::map<std::string, uint64_t>& b) {
  for (const auto& [name, count] : b) a[name] += count;
  return a;
}

TEST_CASE("train: every launch, copy, range, mark and step of the ground truth") {
  const std::string output = FreshFolder("train");
  const std::string truth_path = output + "/../train_truth.json";
  const RunResult run = RunProgram(Program("testdata/workloads/train"),
                                   {"--steps", "5", "--truth", truth_path}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  REQUIRE(truth.ok());
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].complete);
  CHECK(trace.launches == truth.Counts({"totals", "kernels", "by_name"}, "count"));
  CHECK(trace.ranges == Merge(truth.Counts({"totals", "nvtx_ranges", "by_name"}, ""),
                              truth.Counts({"totals", "user_ranges", "by_name"}, "")));
  CHECK(trace.marks == truth.Counts({"totals", "marks", "by_name"}, ""));
  CHECK(trace.memcpy_bytes_by_kind[schema::COPY_KIND_HOST_TO_DEVICE] ==
        truth.Number({"totals", "memcpy", "by_kind", "HtoD", "bytes"}));
  CHECK(trace.memcpy_bytes_by_kind[schema::COPY_KIND_DEVICE_TO_HOST] ==
        truth.Number({"totals", "memcpy", "by_kind", "DtoH", "bytes"}));
  // Five prof_step calls, plus the step still open at exit (paddle's stop() closes it too).
  CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(trace.process_names == std::vector<std::string>{"train"});
  CHECK(std::count(trace.thread_names.begin(), trace.thread_names.end(), "train") == 1);
  CHECK(trace.step_samples[0] == truth.StepNumber(0, {"num_samples"}));
  CHECK(trace.losses.empty());
  CHECK(trace.unknown_references == 0);
}

TEST_CASE("train: every kernel's device record, with the model's exact duration") {
  const std::string output = FreshFolder("train_device");
  const std::string truth_path = output + "/../train_device_truth.json";
  const RunResult run = RunProgram(Program("testdata/workloads/train"),
                                   {"--steps", "4", "--truth", truth_path}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.kernels == truth.Counts({"totals", "kernels", "by_name"}, "count"));
  CHECK(trace.kernel_ns == truth.Counts({"totals", "kernels", "by_name"}, "total_ns"));
  CHECK(trace.device_memcpys == truth.Number({"totals", "memcpy", "count"}));
  CHECK(trace.losses.empty());
}

TEST_CASE("PROF_ACTIVITIES and PROF_TIMER_ONLY select what is recorded") {
  SECTION("nvtx only: ranges, no calls, no device records") {
    const std::string output = FreshFolder("nvtx_only");
    const RunResult run = RunProgram(Program("testdata/workloads/train"), {"--steps", "3"},
                                     UnderAgent(output, {{"PROF_ACTIVITIES", "nvtx"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    CHECK(trace.api_calls.empty());
    CHECK(trace.kernels.empty());
    CHECK(trace.ranges["Forward"] == 3);
  }
  SECTION("timer only: steps and Dataloader ranges, nothing else") {
    const std::string output = FreshFolder("timer_only");
    const RunResult run = RunProgram(Program("testdata/workloads/train"), {"--steps", "3"},
                                     UnderAgent(output, {{"PROF_TIMER_ONLY", "1"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    CHECK(trace.api_calls.empty());
    CHECK(trace.kernels.empty());
    CHECK(trace.ranges == std::map<std::string, uint64_t>{{"Dataloader", 3}});
    CHECK(trace.step_numbers.size() == 4);
    CHECK(trace.losses.empty());
  }
}

TEST_CASE("PROF_STACKS=1: launch and allocation sites carry symbolized stacks") {
  const std::string output = FreshFolder("stacks");
  const RunResult run = RunProgram(Program("agent/tests/lifecycle_program"), {"normal"},
                                   UnderAgent(output, {{"PROF_STACKS", "1"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  CHECK(trace.events_with_stack == 41);  // 40 launches and one cudaMalloc
  CHECK(trace.named_stack_frames > 0);
  std::string frames;
  for (const std::string& frame : trace.sample_stack) frames += frame + "\n";
  INFO(frames);
  CHECK(frames.find("main") != std::string::npos);
}

TEST_CASE("NVTX: domains, registered strings, ranges across threads, ProfileStep steps") {
  const std::string output = FreshFolder("nvtx");
  const RunResult run = RunProgram(Program("agent/tests/nvtx_program"), {}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  // Three ProfileStep ranges end steps 0..2; the step open at exit is step 3.
  CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(trace.ranges ==
        std::map<std::string, uint64_t>{
            {"Forward", 3}, {"async_copy", 3}, {"op_0", 1}, {"op_50", 1}, {"op_100", 1}});
  CHECK(trace.ranges_by_domain == std::map<std::string, uint64_t>{{"my_library/op_0", 1},
                                                                  {"my_library/op_50", 1},
                                                                  {"my_library/op_100", 1}});
  CHECK(trace.marks == std::map<std::string, uint64_t>{{"checkpoint", 3}});
  CHECK(std::count(trace.thread_names.begin(), trace.thread_names.end(), "nvtx_main") == 1);
  CHECK(trace.losses.empty());
}

}  // namespace
}  // namespace prof::testing
