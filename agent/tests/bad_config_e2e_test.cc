// "Bad configuration never hurts" (DESIGN.md, the host-process contract), end to end:
// /bin/true, /bin/echo and a training loop on the simulated CUDA runtime run under
// libprof.so with every PROF_* variable set to extreme and malformed values. Each run must
// end exactly as the same program run without the agent (exit status, signal, stdout),
// and the agent must say exactly one line on stderr, naming the variable, when the value
// is refused, and nothing when it is accepted.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/under_agent.h"

namespace prof::testing {
namespace {

struct Case {
  const char* variable;
  std::string value;
  int warnings;  // lines the agent prints: 1 for a refused value, 0 for an accepted one
};

const char kInt64Max[] = "9223372036854775807";
const char kUint64MaxPlusTwo[] = "18446744073709551617";

std::vector<Case> Cases() {
  std::vector<Case> cases = {
      // The review's reproduction: closed+ready+record overflowed to 0, then t % 0.
      {"PROF_SCHEDULE", "closed=9223372036854775807,ready=9223372036854775807,record=2", 1},
      {"PROF_SCHEDULE", std::string("record=") + kInt64Max, 1},
      {"PROF_SCHEDULE", std::string("skip_first=") + kInt64Max + ",record=1", 1},
      {"PROF_SCHEDULE", "repeat=9223372036854775807,record=1,closed=9223372036854775806", 1},
      {"PROF_SCHEDULE", "record=99999999999999999999999999999999", 1},
      {"PROF_SCHEDULE", "closed=-1,record=2", 1},
      {"PROF_SCHEDULE", std::string("0:") + kInt64Max, 1},
      {"PROF_SCHEDULE", "-3:5", 1},
      {"PROF_SCHEDULE", "5:3", 1},
      {"PROF_SCHEDULE", "record=two", 1},
      {"PROF_SCHEDULE", "record=", 1},
      {"PROF_SCHEDULE", "record=2\nrecord=3", 1},  // a newline must not make a second line
      {"PROF_SCHEDULE",
       "skip_first=1000000000,closed=1000000000,ready=1000000000,"
       "record=1000000000,repeat=1000000000",
       0},  // the largest accepted
      {"PROF_SCHEDULE", " closed = 1 , record = 2 ", 0},
      {"PROF_SCHEDULE", "   ", 0},                                             // blank is unset
      {"PROF_SCHEDULE", "wait=1,warmup=1,active=2,repeat=1,skip_first=1", 0},  // torch's words
      {"PROF_SCHEDULE", "wait=1,warmup=1,active=0", 1},
      {"PROF_SCHEDULE", "wait=1,ready=1,active=2", 1},  // two vocabularies mixed
      {"PROF_BUFFER_MB", kInt64Max, 1},
      {"PROF_BUFFER_MB", kUint64MaxPlusTwo, 1},
      {"PROF_BUFFER_MB", "-1", 1},
      {"PROF_BUFFER_MB", "0", 1},
      {"PROF_BUFFER_MB", "1e3", 1},
      {"PROF_BUFFER_MB", "0x10", 1},
      {"PROF_BUFFER_MB", std::string(5000, '9'), 1},
      {"PROF_BUFFER_MB", " 16 ", 0},
      {"PROF_STEPS_PER_FILE", kInt64Max, 1},
      {"PROF_STEPS_PER_FILE", "-1", 1},
      {"PROF_STEPS_PER_FILE", "ten", 1},
      {"PROF_STEP_MARKER", std::string("api:cudaLaunchKernel:") + kInt64Max, 1},
      {"PROF_STEP_MARKER", "api:cudaLaunchKernel:0", 1},
      {"PROF_STEP_MARKER", "api:cudaLaunchKernel:-2", 1},
      {"PROF_STEP_MARKER", "api::3;kernel:;nonsense", 1},  // three bad rules, one line
      {"PROF_STEP_MARKER", "api:cudaLaunchKernel:1000000000", 0},
      {"PROF_LOG_LEVEL", "loud", 1},
      {"PROF_LOG_LEVEL", kInt64Max, 1},
      {"PROF_ACTIVITIES", "kernels", 1},
      {"PROF_ACTIVITIES", "kernel,bogus,nvtx", 1},  // one line for the variable, not per item
      {"PROF_ACTIVITIES", ",,,", 1},
      {"PROF_WORKER_NAME", "a/b", 1},
      {"PROF_WORKER_NAME", std::string(300, 'w'), 1},
  };
  for (const char* flag :
       {"PROF_DISABLE", "PROF_TIMER_ONLY", "PROF_STACKS", "PROF_PYTHON", "PROF_PYTHON_OPS"}) {
    for (const char* bad : {"2", "-1", kInt64Max, "maybe", "1 1"}) cases.push_back({flag, bad, 1});
    // Every flag takes the same spellings, PROF_PYTHON included.
    for (const char* good : {"true", " No ", "OFF"}) cases.push_back({flag, good, 0});
  }
  return cases;
}

struct Command {
  std::string path;
  std::vector<std::string> arguments;
};

// The CUDA 12 flavour (bad_config_e2e_test_cuda12) runs only the program that loads a CUDA
// runtime: /bin/true and /bin/echo would repeat the CUDA 13 test's runs exactly.
std::vector<Command> Commands() {
  const Command train = {Program("testdata/workloads/train"), {"--steps", "6"}};
  if (Cuda12Flavour()) return {train};
  return {{"/bin/true", {}}, {"/bin/echo", {"hello", "world"}}, train};
}

// stdout with train's loss values blanked: the simulated kernels never write the loss
// buffer, so the loss printed is whatever bytes the heap handed out, which any change in
// the process's allocations (a preloaded library) changes. The lines must still agree.
std::string Comparable(const std::string& standard_output) {
  std::string text;
  size_t begin = 0;
  while (begin < standard_output.size()) {
    size_t end = standard_output.find('\n', begin);
    if (end == std::string::npos) end = standard_output.size();
    std::string line = standard_output.substr(begin, end - begin);
    const size_t loss = line.find(" loss ");
    if (line.rfind("step ", 0) == 0 && loss != std::string::npos)
      line = line.substr(0, loss) + " loss ?";
    text += line + "\n";
    begin = end + 1;
  }
  return text;
}

std::vector<std::string> AgentLines(const std::string& standard_error) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < standard_error.size()) {
    size_t end = standard_error.find('\n', begin);
    if (end == std::string::npos) end = standard_error.size();
    const std::string line = standard_error.substr(begin, end - begin);
    // The note that CUPTI was subscribed after a window opened depends on timing (a READY
    // step shorter than the subscription, as under TSan), not on the configuration.
    const bool timing_note = line.find("device activity was subscribed") != std::string::npos;
    if (line.find("libprof") != std::string::npos && !timing_note) lines.push_back(line);
    begin = end + 1;
  }
  return lines;
}

TEST_CASE("every extreme or malformed PROF_* value: same outcome as without the agent, one line") {
  int index = 0;
  for (const Command& program : Commands()) {
    const RunResult plain = RunProgram(program.path, program.arguments, RunOptions());
    REQUIRE(plain.exit_code == 0);
    const RunResult clean =
        RunProgram(program.path, program.arguments,
                   UnderAgent(FreshFolder("clean"), {{"PROF_LOG_LEVEL", "warn"}}));
    INFO(program.path << " under the agent, nothing set: " << clean.standard_error);
    REQUIRE(AgentLines(clean.standard_error).empty());
    for (const Case& c : Cases()) {
      const std::string output = FreshFolder("bad_config_" + std::to_string(index++));
      const RunResult run =
          RunProgram(program.path, program.arguments, UnderAgent(output, {{c.variable, c.value}}));
      INFO(program.path << " with " << c.variable << "='" << c.value.substr(0, 80) << "'\n"
                        << run.standard_error);
      CHECK(run.signal == plain.signal);
      CHECK(run.exit_code == plain.exit_code);
      CHECK(Comparable(run.standard_output) == Comparable(plain.standard_output));
      const std::vector<std::string> lines = AgentLines(run.standard_error);
      REQUIRE(lines.size() == static_cast<size_t>(c.warnings));
      if (c.warnings == 1) {
        CHECK(lines[0].find(std::string(c.variable) + "='") != std::string::npos);
        CHECK(lines[0].find("; using ") != std::string::npos);
        CHECK(lines[0].size() < 400);  // a 5000-digit value is shortened
      }
    }
  }
}

}  // namespace
}  // namespace prof::testing
