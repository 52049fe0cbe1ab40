#include "analyzer/cli/export_timeline.h"

#include <algorithm>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <limits>
#include <set>

#include "absl/strings/str_cat.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/kineto_exporter.h"
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

// One process's Kineto trace into `out`.
absl::Status WriteKinetoProcess(const ProcessFiles& process, uint64_t origin, std::FILE* out,
                                KinetoExportFigures* figures) {
  KinetoTraceExport exporter(out, origin, figures);
  std::vector<std::string> reported;  // by the first pass already
  ForEachWindow(process, [&](TraceModel window) { exporter.AddWindow(window); }, &reported);
  return exporter.End();
}

// "rank3.json" where every process has a distinct rank (HTA's folder of ranks), else
// "<host>_<pid>.json".
std::vector<std::string> KinetoFileNames(const std::vector<ProcessFiles>& processes) {
  std::set<int32_t> ranks;
  for (const ProcessFiles& process : processes) ranks.insert(process.rank);
  const bool by_rank = ranks.size() == processes.size() && ranks.count(-1) == 0;
  std::vector<std::string> names;
  for (const ProcessFiles& process : processes) {
    names.push_back(by_rank ? absl::StrCat("rank", process.rank, ".json")
                            : absl::StrCat(process.host, "_", process.pid, ".json"));
  }
  return names;
}

std::FILE* OpenOutput(const std::string& path) { return path == "-" ? stdout : std::fopen(path.c_str(), "wb"); }

absl::Status CloseOutput(std::FILE* out, const std::string& path, absl::Status status) {
  if (out != stdout && std::fclose(out) != 0 && status.ok()) status = absl::DataLossError("close failed");
  if (!status.ok()) return absl::Status(status.code(), absl::StrCat(path, ": ", status.message()));
  return absl::OkStatus();
}

// Kineto traces are per process: one process goes to `output`; several go to one file each
// in the folder `output` (created if missing), as torch.profiler writes one per rank.
absl::Status WriteKineto(const std::vector<ProcessFiles>& processes, uint64_t origin, const std::string& output,
                         std::string* summary) {
  KinetoExportFigures figures;
  std::vector<std::string> paths = {output};
  if (processes.size() > 1) {
    if (output == "-") {
      return absl::InvalidArgumentError(absl::StrCat("the kineto format writes one file per process (",
                                                     processes.size(), " here): give a folder as --output"));
    }
    if (mkdir(output.c_str(), 0777) != 0 && errno != EEXIST) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot create the folder ", output));
    }
    paths.clear();
    for (const std::string& name : KinetoFileNames(processes)) paths.push_back(absl::StrCat(output, "/", name));
  }
  for (size_t index = 0; index < processes.size(); ++index) {
    std::FILE* out = OpenOutput(paths[index]);
    if (out == nullptr) return absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", paths[index]));
    absl::Status status = CloseOutput(out, paths[index], WriteKinetoProcess(processes[index], origin, out, &figures));
    if (!status.ok()) return status;
  }
  *summary = absl::StrCat(figures.trace_events, " trace events and ", figures.flows, " ac2g flows in ",
                          processes.size(), processes.size() == 1 ? " Kineto trace" : " Kineto traces");
  return absl::OkStatus();
}

}  // namespace

// Two passes over the files, each holding one window's events: the time origin, then the
// events, process by process and window by window.
absl::Status ExportTimeline(const std::vector<std::string>& paths, const std::string& output,
                            const std::string& format, TimelineExport* result) {
  if (format != "chrome" && format != "perfetto" && format != "kineto") {
    return absl::InvalidArgumentError(absl::StrCat("format: '", format, "' is not chrome, perfetto or kineto"));
  }
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  const std::vector<ProcessFiles> processes = GroupFilesByProcess(*files, &result->unreadable);
  uint64_t origin = 0;
  if (!FindOrigin(processes, &origin, &result->unreadable)) {
    return absl::FailedPreconditionError("nothing could be read");
  }
  if (format == "kineto") return WriteKineto(processes, origin, output, &result->summary);
  std::FILE* out = OpenOutput(output);
  if (out == nullptr) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot write ", output));
  }
  absl::Status status = format == "perfetto" ? WritePerfetto(processes, out, &result->summary)
                                             : WriteChrome(processes, origin, out, &result->summary);
  return CloseOutput(out, output, status);
}

}  // namespace prof::analyzer
