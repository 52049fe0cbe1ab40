#include "analyzer/cli/export_command.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/render/chrome_exporter.h"

namespace prof::analyzer {

CLI::App* AddExportCommand(CLI::App* app, ExportCommandOptions* options) {
  CLI::App* command = app->add_subcommand("export", "write a Chrome trace-event JSON (Perfetto, chrome://tracing)");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  command->add_option("-o,--output", options->output, "the JSON file to write ('-': stdout)")->required();
  return command;
}

namespace {

// The earliest event time of every readable file (the export's time origin), reading one
// file at a time; reports the unreadable ones. False when none could be read.
bool FindOrigin(const std::vector<ProcessFiles>& processes, uint64_t* origin) {
  size_t read = 0;
  *origin = std::numeric_limits<uint64_t>::max();
  std::vector<std::string> unreadable;
  for (const ProcessFiles& process : processes) {
    read += ForEachWindow(
        process, [origin](TraceModel window) { *origin = std::min(*origin, EarliestTime(window)); }, &unreadable);
  }
  for (const std::string& message : unreadable) std::fprintf(stderr, "profanalyze export: %s\n", message.c_str());
  if (*origin == std::numeric_limits<uint64_t>::max()) *origin = 0;
  return read > 0;
}

}  // namespace

// Two passes over the files, each holding one window's events: the time origin, then the
// events, process by process and window by window.
int RunExportCommand(const ExportCommandOptions& options) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(options.paths);
  if (!files.ok()) {
    std::fprintf(stderr, "profanalyze export: %s\n", std::string(files.status().message()).c_str());
    return 1;
  }
  std::vector<std::string> unreadable;
  const std::vector<ProcessFiles> processes = GroupFilesByProcess(*files, &unreadable);
  for (const std::string& message : unreadable) std::fprintf(stderr, "profanalyze export: %s\n", message.c_str());
  uint64_t origin = 0;
  if (!FindOrigin(processes, &origin)) {
    std::fprintf(stderr, "profanalyze export: nothing could be read\n");
    return 1;
  }
  std::FILE* out = options.output == "-" ? stdout : std::fopen(options.output.c_str(), "w");
  if (out == nullptr) {
    std::fprintf(stderr, "profanalyze export: cannot write %s: %s\n", options.output.c_str(), std::strerror(errno));
    return 1;
  }
  ChromeExportFigures figures;
  absl::Status status;
  {
    ChromeTraceExport exporter(out, origin, &figures);
    std::vector<std::string> reported;  // by the first pass already
    for (size_t index = 0; index < processes.size(); ++index) {
      ForEachWindow(
          processes[index], [&](TraceModel window) { exporter.AddWindow(window, index); }, &reported);
    }
    status = exporter.End();
  }
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
