#include "agent/tests/under_agent.h"

#include <climits>
#include <cstdlib>

namespace prof::testing {

bool Cuda12Flavour() {
  const char* flavour = std::getenv("PROF_TEST_CUDA");
  return flavour && std::string(flavour) == "12";
}

std::string Program(const std::string& path) {
  if (!Cuda12Flavour()) return Runfile(path);
  const size_t slash = path.rfind('/');
  const std::string twin = Runfile(path.substr(0, slash + 1) + "cuda12/" + path.substr(slash + 1));
  // The twin is a symlink to the file built for CUDA 12. The loader takes a dlopened
  // library's $ORIGIN from the path as given (a program's from /proc/self/exe, resolved),
  // and the RUNPATH that finds libcudart.so.12 is relative to the real file.
  char real[PATH_MAX];
  return realpath(twin.c_str(), real) ? std::string(real) : twin;
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
