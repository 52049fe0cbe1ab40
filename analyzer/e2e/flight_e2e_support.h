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

// "PROF_FLIGHT_HANG_S=H SIM_NCCL_TIMEOUT_MS=T": the tests' hang limit, and the simulated
// NCCL timeout that ends a hung job T ms after its calls entered. H is 1 s and T 4 s in a
// normal build. Under a sanitizer, 8 instrumented ranks share the machine's cores with
// other tests: a collective that was not hung waited over 1 s for its peers in CI (tsan),
// and the job's first collective, waiting for every rank to start, over 4 s on a machine
// loaded 5 times as much. There H is 8 s, and T leaves 12 s after it for the dumps.
std::string HangLimits();

// H above, in seconds.
int HangSeconds();

// The number printed after `label` in `text` (a table row), or -1.
long long NumberAfter(const std::string& text, const std::string& label);

}  // namespace prof::analyzer::e2e

#endif  // PROF_ANALYZER_E2E_FLIGHT_E2E_SUPPORT_H_
