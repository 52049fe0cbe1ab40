// `profanalyze report PATH... -o report.html`: the self-contained HTML report of a run.
#ifndef PROF_ANALYZER_CLI_REPORT_COMMAND_H_
#define PROF_ANALYZER_CLI_REPORT_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace prof::analyzer {

struct ReportCommandOptions {
  std::vector<std::string> paths;
  std::string output;
  std::string title = "profanalyze report";
};

CLI::App* AddReportCommand(CLI::App* app, ReportCommandOptions* options);
// Exit status: 0 when the page was written, 1 when nothing could be read or written.
int RunReportCommand(const ReportCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_REPORT_COMMAND_H_
