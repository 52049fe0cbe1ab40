// `profanalyze info PATH...`: per process, the file headers, event counts per kind, the
// time span, and the data quality section (always printed here). Memory holds one window
// (or one slice of a large one) at a time.
#ifndef PROF_ANALYZER_CLI_INFO_COMMAND_H_
#define PROF_ANALYZER_CLI_INFO_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {

struct InfoCommandOptions {
  std::vector<std::string> paths;
  // A file past slices.whole_file_bytes is counted one step-aligned slice at a time.
  SliceOptions slices;
};

CLI::App* AddInfoCommand(CLI::App* app, InfoCommandOptions* options);
int RunInfoCommand(const InfoCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_INFO_COMMAND_H_
