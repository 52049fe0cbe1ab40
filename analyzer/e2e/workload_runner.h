// Test support: runs simulated workloads (testdata/workloads) under libprof.so, the way a
// user does (LD_PRELOAD, PROF_OUTPUT_DIR, PROF_CUPTI_LIB pointing at the simulated
// CUPTI), several processes at once when asked (torchrun-style ranks). Each process's
// stdout and stderr go to a log file that an error quotes.
//
//   absl::Status done = RunUnderAgent({{Runfile("testdata/workloads/train"), {"--steps", "4"},
//                                       {{"PROF_SCHEDULE", "2:6"}}}}, output_dir);
#ifndef PROF_ANALYZER_E2E_WORKLOAD_RUNNER_H_
#define PROF_ANALYZER_E2E_WORKLOAD_RUNNER_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace prof::analyzer::e2e {

struct WorkloadProcess {
  std::string program;  // absolute path (see Runfile)
  std::vector<std::string> arguments;
  std::map<std::string, std::string> environment;  // added to the agent's variables
};

// Starts every process at once with the agent preloaded and its traces written to
// `output_dir`, then waits for all of them (60 s at most; stragglers are killed).
// Errors: a process could not start, failed, or timed out (its log tail quoted).
absl::Status RunUnderAgent(const std::vector<WorkloadProcess>& processes,
                           const std::string& output_dir);

// Path of a file in the test's runfiles, e.g. Runfile("agent/libprof.so").
std::string Runfile(const std::string& path);

// A fresh, empty folder under TEST_TMPDIR (or /tmp).
std::string FreshFolder(const std::string& name);

}  // namespace prof::analyzer::e2e

#endif  // PROF_ANALYZER_E2E_WORKLOAD_RUNNER_H_
