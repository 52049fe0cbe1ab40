// Shared by the flight recorder's end-to-end tests: running a command and reading what it
// printed, `profanalyze hang --format json`, and `train_ranks` under the agent with the
// flight recorder on and no recording window.
#ifndef PROF_ANALYZER_E2E_FLIGHT_E2E_SUPPORT_H_
#define PROF_ANALYZER_E2E_FLIGHT_E2E_SUPPORT_H_

#include <string>

namespace prof::analyzer::e2e {

// What `command` prints (stdout and stderr), and its exit status (as from pclose) in `*status`.
std::string RunCommand(const std::string& command, int* status);

// `profanalyze hang FOLDER --format json`'s output (checked to exit 0).
std::string HangJson(const std::string& folder);

// `env ... train_ranks --ranks N ...` under libprof.so with PROF_FLIGHT=1 and
// PROF_SCHEDULE=off, its files in `out`; `environment` adds variables.
std::string FlightRanks(int ranks, const std::string& out, const std::string& environment,
                        const std::string& arguments);

// The number printed after `label` in `text` (a table row), or -1.
long long NumberAfter(const std::string& text, const std::string& label);

}  // namespace prof::analyzer::e2e

#endif  // PROF_ANALYZER_E2E_FLIGHT_E2E_SUPPORT_H_
