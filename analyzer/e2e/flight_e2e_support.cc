#include "analyzer/e2e/flight_e2e_support.h"

#include <sys/wait.h>

#include <cstdio>
#include <sstream>

#include <catch2/catch.hpp>

#include "agent/tests/sanitizer_preload.h"
#include "analyzer/e2e/workload_runner.h"

namespace prof::analyzer::e2e {

std::string RunCommand(const std::string& command, int* status) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t got = 0;
  while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, got);
  *status = pclose(pipe);
  return output;
}

std::string HangJson(const std::string& folder) {
  int status = 0;
  const std::string out = RunCommand(
      Runfile("analyzer/cli/profanalyze") + " hang " + folder + " --format json", &status);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return out;
}

std::string FlightRanks(int ranks, const std::string& out, const std::string& environment,
                        const std::string& arguments) {
  return "env LD_PRELOAD=\"" + prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so")) +
         "\" PROF_CUPTI_LIB=" + Runfile("testdata/sim/libcupti.so.13") +
         " PROF_FLIGHT=1 PROF_SCHEDULE=off PROF_OUTPUT_DIR=" + out + " " + environment + " " +
         Runfile("testdata/workloads/train_ranks") + " --ranks " + std::to_string(ranks) + " " +
         arguments;
}

int HangSeconds() { return prof::testing::kSanitizerBuild ? 8 : 1; }

std::string HangLimits() {
  const int timeout_ms = HangSeconds() * 1000 + (prof::testing::kSanitizerBuild ? 12000 : 3000);
  return "PROF_FLIGHT_HANG_S=" + std::to_string(HangSeconds()) +
         " SIM_NCCL_TIMEOUT_MS=" + std::to_string(timeout_ms);
}

long long NumberAfter(const std::string& text, const std::string& label) {
  const size_t at = text.find(label);
  if (at == std::string::npos) return -1;
  std::istringstream rest(text.substr(at + label.size()));
  long long value = -1;
  rest >> value;
  return value;
}

}  // namespace prof::analyzer::e2e
