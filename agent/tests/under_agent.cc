#include "agent/tests/under_agent.h"

#include <cstdlib>

namespace prof::testing {

bool Cuda12Flavour() {
  const char* flavour = std::getenv("PROF_TEST_CUDA");
  return flavour && std::string(flavour) == "12";
}

std::string Program(const std::string& path) {
  if (!Cuda12Flavour()) return Runfile(path);
  const size_t slash = path.rfind('/');
  return Runfile(path.substr(0, slash + 1) + "cuda12/" + path.substr(slash + 1));
}

std::string FlavourCupti() {
  return Runfile(Cuda12Flavour() ? "testdata/sim/libcupti.so.12" : "testdata/sim/libcupti.so.13");
}

RunOptions UnderAgent(const std::string& output, std::map<std::string, std::string> extra) {
  RunOptions options;
  options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")},
                         {"PROF_OUTPUT_DIR", output},
                         {"PROF_CUPTI_LIB", FlavourCupti()}};
  for (auto& [name, value] : extra) options.environment[name] = value;
  return options;
}

uint64_t Total(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [name, count] : counts) total += count;
  return total;
}

}  // namespace prof::testing
