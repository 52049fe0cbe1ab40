// CUDA 12 next to CUDA 13 (issue 24): a program on the simulated platform's CUDA 12 flavour
// (libcudart.so.12 with versioned symbols, libcupti.so.12 writing CUDA 12.6's records) gets
// its CUPTI from beside its own runtime, its records read right, its versioned runtime
// symbols interposed; a CUPTI of the other major costs one line and host tracing goes on.
#include <string>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/truth_file.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

const char kTrain12[] = "testdata/workloads/cuda12/train";

int LinesWith(const std::string& text, const std::string& needle) {
  int lines = 0;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (text.substr(begin, end - begin).find(needle) != std::string::npos) ++lines;
    begin = end + 1;
  }
  return lines;
}

// Runs the CUDA 12 train for 3 steps with `extra`; the truth lands in `truth_path`.
RunResult RunTrain12(const std::string& output, const std::string& truth_path,
                     std::map<std::string, std::string> extra) {
  RunOptions options = UnderAgent(output, extra);
  options.environment["PROF_LOG_LEVEL"] = "info";
  if (extra.find("PROF_CUPTI_LIB") == extra.end()) options.environment.erase("PROF_CUPTI_LIB");
  return RunProgram(Runfile(kTrain12), {"--steps", "3", "--truth", truth_path}, options);
}

TEST_CASE("cu12: libcupti.so.12 beside the loaded libcudart.so.12, every kernel as it ran") {
  const std::string output = FreshFolder("beside_runtime");
  const std::string truth_path = output + "/../beside_truth.json";
  // No PROF_CUPTI_LIB: found beside the runtime (the real CUDA 13 CUPTI in
  // /usr/local/cuda/lib64 must not be taken for a CUDA 12 program).
  const RunResult run = RunTrain12(output, truth_path, {});
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  CHECK(LinesWith(run.standard_error, "libcupti.so.12 (CUPTI API version 24") == 1);
  const TruthFile truth(truth_path);
  REQUIRE(truth.ok());
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  // Names, counts and exact durations: read at 12's offsets, walked with 12's sizes.
  CHECK(trace.kernels == truth.Counts({"totals", "kernels", "by_name"}, "count"));
  CHECK(trace.kernel_ns == truth.Counts({"totals", "kernels", "by_name"}, "total_ns"));
  CHECK(trace.device_memcpys == truth.Number({"totals", "memcpy", "count"}));
  CHECK(trace.unmatched_device_records == 0);
  CHECK(trace.losses.empty());
}

TEST_CASE("cu12: CUPTI 13 for a CUDA 12 runtime is one line naming both; host tracing goes on") {
  const std::string output = FreshFolder("mismatch");
  const std::string cupti13 = Runfile("testdata/sim/libcupti.so.13");
  const RunResult run =
      RunTrain12(output, output + "/../mismatch_truth.json", {{"PROF_CUPTI_LIB", cupti13}});
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  CHECK(LinesWith(run.standard_error, "libcudart.so.12") == 1);
  CHECK(LinesWith(run.standard_error, cupti13) == 1);
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.kernels.empty());
  CHECK(Total(trace.launches) > 0);
}

TEST_CASE("cu12: cudaLaunchKernel@libcudart.so.12 reaches the hooks") {
  const std::string output = FreshFolder("versioned_hooks");
  const std::string truth_path = output + "/../hooks_truth.json";
  // No CUPTI at all: every recorded call was seen by an interposer, none by CUPTI.
  const RunResult run =
      RunTrain12(output, truth_path, {{"PROF_CUPTI_LIB", output + "/no_such_libcupti.so"}});
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  REQUIRE(truth.ok());
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.launches == truth.Counts({"totals", "kernels", "by_name"}, "count"));
  CHECK(trace.kernels.empty());
}

}  // namespace
}  // namespace prof::testing
