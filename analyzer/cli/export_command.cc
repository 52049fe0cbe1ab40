#include "analyzer/cli/export_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "analyzer/cli/load_inputs.h"
#include "analyzer/render/chrome_exporter.h"

namespace prof::analyzer {

CLI::App* AddExportCommand(CLI::App* app, ExportCommandOptions* options) {
  CLI::App* command = app->add_subcommand("export", "write a Chrome trace-event JSON (Perfetto, chrome://tracing)");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  command->add_option("-o,--output", options->output, "the JSON file to write ('-': stdout)")->required();
  return command;
}

int RunExportCommand(const ExportCommandOptions& options) {
  absl::StatusOr<LoadedInputs> inputs = LoadInputs(options.paths);
  if (!inputs.ok()) {
    std::fprintf(stderr, "profanalyze export: %s\n", std::string(inputs.status().message()).c_str());
    return 1;
  }
  for (const std::string& message : inputs->unreadable) std::fprintf(stderr, "profanalyze export: %s\n", message.c_str());
  if (inputs->processes.empty()) {
    std::fprintf(stderr, "profanalyze export: nothing could be read\n");
    return 1;
  }
  std::FILE* out = options.output == "-" ? stdout : std::fopen(options.output.c_str(), "w");
  if (out == nullptr) {
    std::fprintf(stderr, "profanalyze export: cannot write %s: %s\n", options.output.c_str(), std::strerror(errno));
    return 1;
  }
  std::vector<const TraceModel*> models;
  for (const TraceModel& model : inputs->processes) models.push_back(&model);
  ChromeExportFigures figures;
  absl::Status status = ExportChromeTrace(models, out, &figures);
  if (out != stdout && std::fclose(out) != 0 && status.ok()) status = absl::DataLossError("close failed");
  if (!status.ok()) {
    std::fprintf(stderr, "profanalyze export: %s: %s\n", options.output.c_str(), std::string(status.message()).c_str());
    return 1;
  }
  std::fprintf(stderr, "profanalyze export: wrote %llu trace events and %llu launch flows to %s\n",
               static_cast<unsigned long long>(figures.trace_events),
               static_cast<unsigned long long>(figures.flows), options.output.c_str());
  return 0;
}

}  // namespace prof::analyzer
