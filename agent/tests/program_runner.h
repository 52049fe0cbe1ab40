// Test support: runs a program (optionally under LD_PRELOAD=libprof.so) with extra
// environment, captures stdout and stderr, and can send it a signal once it prints "ready".
#ifndef PROF_AGENT_TESTS_PROGRAM_RUNNER_H_
#define PROF_AGENT_TESTS_PROGRAM_RUNNER_H_

#include <map>
#include <string>
#include <vector>

#include "agent/tests/sanitizer_preload.h"

namespace prof::testing {

struct RunResult {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  std::string standard_output;
  std::string standard_error;
  bool timed_out = false;
};

struct RunOptions {
  std::map<std::string, std::string> environment;  // added to (or replacing) the test's own
  int signal_after_ready = 0;  // sent this long after the program prints "ready"
  int signal_delay_ms = 300;
  // Then the program is killed (RunResult::timed_out). Three times as long under a
  // sanitizer, as .bazelrc's test timeouts: TSan's launch_stress of 300000 launches took
  // over 60 s on a loaded machine.
  int timeout_ms = kSanitizerBuild ? 180000 : 60000;
};

RunResult RunProgram(const std::string& path, const std::vector<std::string>& arguments,
                     const RunOptions& options);

// Path of a file in the test's runfiles, e.g. Runfile("agent/libprof.so").
std::string Runfile(const std::string& path);

// A fresh, empty folder under TEST_TMPDIR.
std::string FreshFolder(const std::string& name);

}  // namespace prof::testing

#endif  // PROF_AGENT_TESTS_PROGRAM_RUNNER_H_
