#include "analyzer/cli/export_command.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/perfetto_exporter.h"

namespace prof::analyzer {

CLI::App* AddExportCommand(CLI::App* app, ExportCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "export", "write a timeline: Chrome trace-event JSON (Perfetto, chrome://tracing) or Perfetto's protobuf trace");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  command->add_option("-o,--output", options->output, "the file to write ('-': stdout)")->required();
  command
      ->add_option("--format", options->format,
                   "chrome: trace-event JSON; perfetto: Perfetto's native protobuf trace (opens in "
                   "ui.perfetto.dev beyond the JSON importer's size limits)")
      ->check(CLI::IsMember({"chrome", "perfetto"}));
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

// Feeds every window of every process to `exporter` (ChromeTraceExport or
// PerfettoTraceExport), one window in memory at a time.
template <typename Exporter>
absl::Status ExportWindows(const std::vector<ProcessFiles>& processes, Exporter* exporter) {
  std::vector<std::string> reported;  // by the first pass already
  for (size_t index = 0; index < processes.size(); ++index) {
    ForEachWindow(
        processes[index], [&](TraceModel window) { exporter->AddWindow(window, index); }, &reported);
  }
  return exporter->End();
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
  std::FILE* out = options.output == "-" ? stdout : std::fopen(options.output.c_str(), "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "profanalyze export: cannot write %s: %s\n", options.output.c_str(), std::strerror(errno));
    return 1;
  }
  absl::Status status;
  std::string summary;
  if (options.format == "perfetto") {
    PerfettoExportFigures figures;
    PerfettoTraceExport exporter(out, &figures);
    status = ExportWindows(processes, &exporter);
    summary = absl::StrCat(figures.packets, " packets (", figures.slices, " slices, ", figures.flows,
                           " launch flows) in Perfetto's protobuf format");
    if (figures.clamped_slices) {
      absl::StrAppend(&summary, "; ", figures.clamped_slices, " slices ended early where the next one on their track overlapped them");
    }
  } else {
    ChromeExportFigures figures;
    ChromeTraceExport exporter(out, origin, &figures);
    status = ExportWindows(processes, &exporter);
    summary = absl::StrCat(figures.trace_events, " trace events and ", figures.flows, " launch flows");
  }
  if (out != stdout && std::fclose(out) != 0 && status.ok()) status = absl::DataLossError("close failed");
  if (!status.ok()) {
    std::fprintf(stderr, "profanalyze export: %s: %s\n", options.output.c_str(), std::string(status.message()).c_str());
    return 1;
  }
  std::fprintf(stderr, "profanalyze export: wrote %s to %s\n", summary.c_str(), options.output.c_str());
  return 0;
}

}  // namespace prof::analyzer
