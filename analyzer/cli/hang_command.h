// `profanalyze hang PATH... [--format text|json]`: reads the flight-recorder dumps of a job
// (trace files whose header carries FileHeader.flight; any subset of the ranks: a missing
// rank is named, not fatal; other trace files are skipped and counted) and names the
// rank(s) that never entered the collective the others wait in (job/hang_analysis.h).
// Where a rank dumped more than once (a hang, then the SIGTERM that ended it), its latest
// dump counts. A rank is the header's, else the process's rank in its largest
// communicator (ranks forked by one launcher have no RANK variable).
// Exit status: 0 with a report (culprits or not), 1 when no dump could be read, 2 usage.
#ifndef PROF_ANALYZER_CLI_HANG_COMMAND_H_
#define PROF_ANALYZER_CLI_HANG_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace prof::analyzer {

struct HangCommandOptions {
  std::vector<std::string> paths;
  std::string format = "text";
};

CLI::App* AddHangCommand(CLI::App* app, HangCommandOptions* options);
int RunHangCommand(const HangCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_HANG_COMMAND_H_
