#include "analyzer/cli/export_timeline.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <limits>

#include "absl/strings/str_cat.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/perfetto_exporter.h"

namespace prof::analyzer {
namespace {

// The earliest event time of every readable file (the export's time origin), reading one
// file at a time; lists the unreadable ones. False when none could be read.
bool FindOrigin(const std::vector<ProcessFiles>& processes, uint64_t* origin, std::vector<std::string>* unreadable) {
  size_t read = 0;
  *origin = std::numeric_limits<uint64_t>::max();
  for (const ProcessFiles& process : processes) {
    read += ForEachWindow(
        process, [origin](TraceModel window) { *origin = std::min(*origin, EarliestTime(window)); }, unreadable);
  }
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

absl::Status WritePerfetto(const std::vector<ProcessFiles>& processes, std::FILE* out, std::string* summary) {
  PerfettoExportFigures figures;
  PerfettoTraceExport exporter(out, &figures);
  absl::Status status = ExportWindows(processes, &exporter);
  *summary = absl::StrCat(figures.packets, " packets (", figures.slices, " slices, ", figures.flows,
                          " launch flows) in Perfetto's protobuf format");
  if (figures.clamped_slices) {
    absl::StrAppend(summary, "; ", figures.clamped_slices,
                    " slices ended early where the next one on their track overlapped them");
  }
  return status;
}

absl::Status WriteChrome(const std::vector<ProcessFiles>& processes, uint64_t origin, std::FILE* out,
                         std::string* summary) {
  ChromeExportFigures figures;
  ChromeTraceExport exporter(out, origin, &figures);
  absl::Status status = ExportWindows(processes, &exporter);
  *summary = absl::StrCat(figures.trace_events, " trace events and ", figures.flows, " launch flows");
  return status;
}

}  // namespace

// Two passes over the files, each holding one window's events: the time origin, then the
// events, process by process and window by window.
absl::Status ExportTimeline(const std::vector<std::string>& paths, const std::string& output,
                            const std::string& format, TimelineExport* result) {
  if (format != "chrome" && format != "perfetto") {
    return absl::InvalidArgumentError(absl::StrCat("format: '", format, "' is not chrome or perfetto"));
  }
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  const std::vector<ProcessFiles> processes = GroupFilesByProcess(*files, &result->unreadable);
  uint64_t origin = 0;
  if (!FindOrigin(processes, &origin, &result->unreadable)) {
    return absl::FailedPreconditionError("nothing could be read");
  }
  std::FILE* out = output == "-" ? stdout : std::fopen(output.c_str(), "wb");
  if (out == nullptr) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot write ", output));
  }
  absl::Status status = format == "perfetto" ? WritePerfetto(processes, out, &result->summary)
                                             : WriteChrome(processes, origin, out, &result->summary);
  if (out != stdout && std::fclose(out) != 0 && status.ok()) status = absl::DataLossError("close failed");
  if (!status.ok()) return absl::Status(status.code(), absl::StrCat(output, ": ", status.message()));
  return absl::OkStatus();
}

}  // namespace prof::analyzer
