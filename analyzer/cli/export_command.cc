#include "analyzer/cli/export_command.h"

#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "analyzer/cli/export_timeline.h"

namespace prof::analyzer {

CLI::App* AddExportCommand(CLI::App* app, ExportCommandOptions* options) {
  CLI::App* command =
      app->add_subcommand("export",
                          "write a timeline: Chrome trace-event JSON (Perfetto, chrome://tracing), "
                          "Perfetto's protobuf trace, or Kineto traces (HTA, TensorBoard)");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  command->add_option("-o,--output", options->output, "the file to write ('-': stdout)")
      ->required();
  command
      ->add_option(
          "--format", options->format,
          "chrome: trace-event JSON; perfetto: Perfetto's native protobuf trace (opens in "
          "ui.perfetto.dev beyond the JSON importer's size limits); kineto: torch.profiler's "
          "trace layout for HTA and TensorBoard, one file per process (several processes: "
          "--output is a folder, rank<N>.json in it)")
      ->check(CLI::IsMember({"chrome", "perfetto", "kineto"}));
  return command;
}

// The unreadable files, then the error or what was written, on stderr.
int RunExportCommand(const ExportCommandOptions& options) {
  TimelineExport result;
  const absl::Status status =
      ExportTimeline(options.paths, options.output, options.format, &result);
  for (const std::string& message : result.unreadable)
    std::fprintf(stderr, "profanalyze export: %s\n", message.c_str());
  if (!status.ok()) {
    std::fprintf(stderr, "profanalyze export: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  std::fprintf(stderr, "profanalyze export: wrote %s to %s\n", result.summary.c_str(),
               options.output.c_str());
  return 0;
}

}  // namespace prof::analyzer
