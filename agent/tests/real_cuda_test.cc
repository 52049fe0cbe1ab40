// libprof.so on the toolkit's REAL libcudart.so.13 and libcupti.so.13 (not the simulated
// ones), found the way a user's run finds them: PROF_CUPTI_LIB unset, libcupti next to the
// loaded libcudart or under $CUDA_HOME. Without a driver (this machine, CI) the runtime
// fails every call, as on a GPU machine whose driver is missing or too old: the program
// must print and return exactly what it does without the agent, the agent must say once
// that CUPTI is unusable, and the trace must hold the failed calls with their errors.
// Skips (with a warning) when the toolkit has no libcudart.so.13.
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"

namespace prof::testing {
namespace {

constexpr int kNoRealRuntime = 77;  // real_cuda_program built without the real library
constexpr int kNoDevice = 5;        // the runtime found no usable device

std::string Program() { return Runfile("agent/tests/real_cuda_program"); }

RunOptions UnderAgent(const std::string& output, std::map<std::string, std::string> extra) {
  RunOptions options;
  options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")}, {"PROF_OUTPUT_DIR", output}};
  for (auto& [name, value] : extra) options.environment[name] = value;
  return options;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// Every line of the agent is whole: its own prefix, its own newline.
void CheckAgentLines(const std::string& standard_error) {
  INFO(standard_error);
  if (standard_error.empty()) return;
  CHECK(standard_error.back() == '\n');
  for (const std::string& line : Lines(standard_error)) {
    CHECK(line.rfind("libprof: ", 0) == 0);
    CHECK(line.find("libprof: ", 1) == std::string::npos);  // two lines run together
  }
}

int CuptiLines(const std::string& standard_error) {
  int count = 0;
  for (std::string line : Lines(standard_error)) {
    std::transform(line.begin(), line.end(), line.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (line.find("cupti") != std::string::npos) ++count;
  }
  return count;
}

// The run without the agent; false (after a warning) when this toolkit has no real runtime.
bool RunBare(const std::vector<std::string>& arguments, RunResult* bare) {
  *bare = RunProgram(Program(), arguments, RunOptions{});
  if (bare->exit_code == kNoRealRuntime) {
    WARN("skipped: " << bare->standard_output
                     << "(the CUDA toolkit at $CUDA_HOME has no "
                        "lib64/libcudart.so.13)");
    return false;
  }
  INFO(bare->standard_output << bare->standard_error);
  REQUIRE((bare->exit_code == 0 || bare->exit_code == kNoDevice));
  CHECK(bare->standard_error.empty());
  return true;
}

TEST_CASE("real runtime: the program's own output and exit, one CUPTI line, a readable trace") {
  RunResult bare;
  if (!RunBare({"1"}, &bare)) return;
  const std::string output = FreshFolder("real_cuda");
  const RunResult run = RunProgram(Program(), {"1"}, UnderAgent(output, {}));
  INFO(run.standard_error);
  CHECK(run.exit_code == bare.exit_code);
  CHECK(run.signal == 0);
  CHECK(run.standard_output == bare.standard_output);
  CheckAgentLines(run.standard_error);
  const bool no_device = bare.exit_code == kNoDevice;
  // No driver: CUPTI cannot subscribe, said once. A working GPU: nothing to say.
  CHECK(CuptiLines(run.standard_error) == (no_device ? 1 : 0));
  // The documented behaviour when nothing CUDA worked: the window is still written, with
  // every hooked call and its error status (device activity: none).
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].complete);
  CHECK(trace.files[0].issues.empty());
  CHECK(trace.malformed_blocks == 0);
  for (const char* call : {"cudaMalloc", "cudaMemcpy", "cudaMemsetAsync", "cudaLaunchKernel",
                           "cudaStreamSynchronize", "cudaDeviceSynchronize"}) {
    INFO(call);
    CHECK(trace.api_calls.count(call) == 1);
    if (trace.api_calls.count(call)) CHECK(trace.api_calls.at(call) == 1);
  }
  if (no_device) CHECK(trace.kernels.empty());
}

TEST_CASE("real runtime: windows and PROF_LOG_LEVEL=info still tell the CUPTI failure once") {
  RunResult bare;
  if (!RunBare({"4"}, &bare)) return;
  const std::string output = FreshFolder("real_cuda_windows");
  const RunResult run = RunProgram(
      Program(), {"4"},
      UnderAgent(output,
                 {{"PROF_SCHEDULE", "closed=1,record=1,repeat=2"}, {"PROF_LOG_LEVEL", "info"}}));
  INFO(run.standard_error);
  CHECK(run.exit_code == bare.exit_code);
  CHECK(run.standard_output == bare.standard_output);
  CheckAgentLines(run.standard_error);
  if (bare.exit_code == kNoDevice) CHECK(CuptiLines(run.standard_error) == 1);
  // Two recorded steps, each with its one cudaMalloc. (Not asserted: one file per window.
  // When CUPTI's failing subscribe is slow, the writer can drain the second window's calls
  // before it handles that window's open, and they land in the first file.)
  const TraceSummary trace = SummarizeFolder(output);
  CHECK_FALSE(trace.files.empty());
  for (const FileSummary& file : trace.files) CHECK(file.complete);
  CHECK(trace.api_calls.count("cudaMalloc") == 1);
  if (trace.api_calls.count("cudaMalloc")) CHECK(trace.api_calls.at("cudaMalloc") == 2);
}

}  // namespace
}  // namespace prof::testing
