#include "analyzer/cli/report_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "analyzer/report/build_report.h"

namespace prof::analyzer {

CLI::App* AddReportCommand(CLI::App* app, ReportCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "report", "write a self-contained HTML report (charts; opens offline in any browser)");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  command->add_option("-o,--output", options->output, "the HTML file to write")->required();
  command->add_option("--title", options->title, "the page's title");
  return command;
}

int RunReportCommand(const ReportCommandOptions& options) {
  absl::StatusOr<report::CollectedRun> run = report::CollectRun(options.paths);
  if (!run.ok()) {
    std::fprintf(stderr, "profanalyze report: %s\n", std::string(run.status().message()).c_str());
    return 1;
  }
  for (const std::string& message : run->unreadable)
    std::fprintf(stderr, "profanalyze report: %s\n", message.c_str());
  if (run->ranks.empty()) {
    std::fprintf(stderr, "profanalyze report: nothing could be read\n");
    return 1;
  }
  const std::string html = report::RenderReport(*run, options.title);
  std::FILE* out = std::fopen(options.output.c_str(), "w");
  if (out == nullptr) {
    std::fprintf(stderr, "profanalyze report: cannot write %s: %s\n", options.output.c_str(),
                 std::strerror(errno));
    return 1;
  }
  const bool written = std::fwrite(html.data(), 1, html.size(), out) == html.size();
  if (std::fclose(out) != 0 || !written) {
    std::fprintf(stderr, "profanalyze report: writing %s failed\n", options.output.c_str());
    return 1;
  }
  std::string layout;
  if (run->layout) {
    layout = "; job layout: " + std::to_string(run->layout->charted.size()) +
             " rank(s) charted, the others in the heat map";
  }
  std::fprintf(stderr, "profanalyze report: wrote %s (%zu process(es), %zu unreadable file(s)%s)\n",
               options.output.c_str(), run->ranks.size(), run->unreadable.size(), layout.c_str());
  return 0;
}

}  // namespace prof::analyzer
