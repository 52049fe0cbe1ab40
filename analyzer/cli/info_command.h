// `profanalyze info PATH...`: per process, the file headers, event counts per kind, the
// time span, and the data quality section (always printed here).
#ifndef PROF_ANALYZER_CLI_INFO_COMMAND_H_
#define PROF_ANALYZER_CLI_INFO_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace prof::analyzer {

struct InfoCommandOptions {
  std::vector<std::string> paths;
};

CLI::App* AddInfoCommand(CLI::App* app, InfoCommandOptions* options);
int RunInfoCommand(const InfoCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_INFO_COMMAND_H_
