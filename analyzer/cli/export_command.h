// `profanalyze export PATH... -o out.json [--format chrome|perfetto]`: a timeline of every
// process, as Chrome trace-event JSON (default) or Perfetto's native protobuf trace.
#ifndef PROF_ANALYZER_CLI_EXPORT_COMMAND_H_
#define PROF_ANALYZER_CLI_EXPORT_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace prof::analyzer {

struct ExportCommandOptions {
  std::vector<std::string> paths;
  std::string output;
  std::string format = "chrome";  // "chrome" | "perfetto"
};

CLI::App* AddExportCommand(CLI::App* app, ExportCommandOptions* options);
int RunExportCommand(const ExportCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_EXPORT_COMMAND_H_
