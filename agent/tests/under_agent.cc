#include "agent/tests/under_agent.h"

namespace prof::testing {

RunOptions UnderAgent(const std::string& output, std::map<std::string, std::string> extra) {
  RunOptions options;
  options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")},
                         {"PROF_OUTPUT_DIR", output},
                         {"PROF_CUPTI_LIB", Runfile("testdata/sim/libcupti.so.13")}};
  for (auto& [name, value] : extra) options.environment[name] = value;
  return options;
}

uint64_t Total(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [name, count] : counts) total += count;
  return total;
}

}  // namespace prof::testing
