// The way the agent's end-to-end tests start a program under libprof.so: preloaded, its
// files in `output`, the simulated CUPTI (testdata/sim), plus the test's own PROF_*
// variables; and the sum of a trace summary's per-name counts.
#ifndef PROF_AGENT_TESTS_UNDER_AGENT_H_
#define PROF_AGENT_TESTS_UNDER_AGENT_H_

#include <cstdint>
#include <map>
#include <string>

#include "agent/tests/program_runner.h"

namespace prof::testing {

// `extra` overrides or adds environment variables (PROF_CUPTI_LIB too).
RunOptions UnderAgent(const std::string& output, std::map<std::string, std::string> extra = {});

uint64_t Total(const std::map<std::string, uint64_t>& counts);

}  // namespace prof::testing

#endif  // PROF_AGENT_TESTS_UNDER_AGENT_H_
