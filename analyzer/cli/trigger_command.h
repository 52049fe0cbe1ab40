// `profanalyze trigger PID... [--steps N | --seconds S] [--all]`: on-demand capture of
// running processes under libprof.so, with no restart and nothing in their signal
// handlers. Writes a request file "<pid>.trigger" ("steps=N" or "seconds=S") into the
// per-user control folder, which each agent's writer thread polls every 100 ms
// (agent/control/trigger.h holds the agent's side and the rules). The folder,
// PROF_CONTROL_DIR or /tmp/libprof-<uid>, is created with mode 0700 and refused if anyone
// else could enter it; only processes of this user that have libprof.so loaded are
// triggered. --all: every such process of this user on this host (every local rank).
#ifndef PROF_ANALYZER_CLI_TRIGGER_COMMAND_H_
#define PROF_ANALYZER_CLI_TRIGGER_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace prof::analyzer {

struct TriggerCommandOptions {
  std::vector<int> pids;
  bool all = false;
  int64_t steps = 0;
  double seconds = 0;
  bool flight = false;      // a flight-recorder dump (PROF_FLIGHT=1) instead of a window
  std::string control_dir;  // --control-dir, else PROF_CONTROL_DIR, else /tmp/libprof-<uid>
};

CLI::App* AddTriggerCommand(CLI::App* app, TriggerCommandOptions* options);
int RunTriggerCommand(const TriggerCommandOptions& options);

// The processes of this user (other than this one) that have libprof.so mapped.
std::vector<int> AgentProcessesOfThisUser();

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_TRIGGER_COMMAND_H_
