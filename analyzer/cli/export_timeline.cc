#include "analyzer/cli/export_timeline.h"

#include <algorithm>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/pipeline/run_processes.h"
#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/kineto_annotations.h"
#include "analyzer/render/kineto_exporter.h"
#include "analyzer/render/perfetto_exporter.h"

namespace prof::analyzer {
namespace {

// The windows the origin pass keeps decoded for the export pass, in events (a decoded
// window holds about 100 bytes per event: 10 windows of 100k events kept measured 100 MiB
// peak, so about 200 MiB here). A run within it is decoded once; past it, the windows
// that did not fit are decoded again by the export pass, so memory stays bounded whatever
// the run's size. A single window file is kept whole when it fits: it costs no memory
// beyond what the export pass holds anyway.
constexpr uint64_t kKeptEvents = 2000000;

// What the export pass needs from the origin pass (which reads every file first).
struct OriginPass {
  uint64_t origin = std::numeric_limits<uint64_t>::max();  // the earliest event time
  std::map<std::string, TraceModel> kept;  // windows decoded once, by path (kKeptEvents)
  uint64_t kept_events = 0;
  // A file read in slices: its window's span (the recording window the first slice shows).
  std::map<std::string, WindowPart> spans;
};

// The origin pass as a consumer: the earliest event time of every window, keeping the
// windows that fit in kKeptEvents for the export pass, and the span of each window read
// in slices (never kept: its slices are read again, one at a time).
class OriginConsumer : public ProcessConsumer {
 public:
  explicit OriginConsumer(OriginPass* pass) : pass_(pass) {}
  void AddWindow(TraceModel window) override {
    pass_->origin = std::min(pass_->origin, EarliestTime(window));
    if (pass_->kept_events + window.event_count > kKeptEvents || window.files.empty()) return;
    pass_->kept_events += window.event_count;
    std::string path = window.files.front();
    pass_->kept[std::move(path)] = std::move(window);
  }
  void AddSlice(TraceModel slice, const std::string& path, size_t index) override {
    WindowPart& span = pass_->spans[path];
    if (index == 0) span = {false, std::numeric_limits<uint64_t>::max(), 0, 0};
    span.start_ns = std::min(span.start_ns, EarliestTime(slice));
    span.end_ns = std::max(span.end_ns, LatestTime(slice));
    span.id_ranges += KinetoIdRanges(slice);
    pass_->origin = std::min(pass_->origin, span.start_ns);
  }

 private:
  OriginPass* pass_;
};

// The export's time origin: the earliest event time of every readable file. False when
// none could be read.
bool FindOrigin(const Inputs& inputs, const SliceOptions& slices, OriginPass* pass,
                std::vector<std::string>* unreadable) {
  RunOptions options;
  options.slices = slices;
  const RunSummary run = RunProcesses(
      inputs, options, [&](size_t) { return std::make_unique<OriginConsumer>(pass); });
  *unreadable = run.unreadable;
  if (pass->origin == std::numeric_limits<uint64_t>::max()) pass->origin = 0;
  return run.files_read > 0;
}

// The export pass as a consumer: every window of process `index` to `exporter`
// (ChromeTraceExport or KinetoTraceExport), a large window slice by slice.
template <typename Exporter>
class ExportConsumer : public ProcessConsumer {
 public:
  ExportConsumer(Exporter* exporter, size_t index, const OriginPass* pass)
      : exporter_(exporter), index_(index), pass_(pass) {}
  void AddWindow(TraceModel window) override {
    if constexpr (std::is_same_v<Exporter, KinetoTraceExport>) {
      exporter_->AddWindow(window);
    } else {
      exporter_->AddWindow(window, index_);
    }
  }
  void AddSlice(TraceModel slice, const std::string& path, size_t index) override {
    // The origin pass measured the window; a file that grew past the slicing size since
    // then has only its first slice's span (and Kineto numbers its operators from it).
    auto span = pass_->spans.find(path);
    WindowPart part =
        span != pass_->spans.end()
            ? span->second
            : WindowPart{false, EarliestTime(slice), LatestTime(slice), KinetoIdRanges(slice)};
    part.continues = index > 0;
    if constexpr (std::is_same_v<Exporter, KinetoTraceExport>) {
      exporter_->AddWindow(slice, &part);
    } else {
      exporter_->AddWindow(slice, index_, &part);
    }
  }

 private:
  Exporter* exporter_;
  size_t index_;
  const OriginPass* pass_;
};

// Feeds every window of every process to `exporter`, process by process, one window in
// memory at a time (besides those kept decoded from the origin pass), a large window in
// slices. Kineto numbers a window's collectives after its operators ("External id"): the
// origin pass counted the operators of a window read in slices (WindowPart::id_ranges).
template <typename Exporter>
RunSummary ExportWindows(const Inputs& inputs, const SliceOptions& slices, OriginPass* pass,
                         Exporter* exporter) {
  RunOptions options;
  options.decoded = &pass->kept;
  options.slices = slices;
  return RunProcesses(inputs, options, [exporter, pass](size_t i) {
    return std::make_unique<ExportConsumer<Exporter>>(exporter, i, pass);
  });
}

std::FILE* OpenOutput(const std::string& path) {
  return path == "-" ? stdout : std::fopen(path.c_str(), "wb");
}

absl::Status CloseOutput(std::FILE* out, const std::string& path, absl::Status status) {
  if (out != stdout && std::fclose(out) != 0 && status.ok())
    status = absl::DataLossError("close failed");
  if (!status.ok()) return absl::Status(status.code(), absl::StrCat(path, ": ", status.message()));
  return absl::OkStatus();
}

// Perfetto's trace needs no time origin: one pass, and the output is opened at the first
// readable window (nothing readable: no output is created). A large window comes in
// slices: the exporter carries each track's open slices from one to the next, so they
// nest (and are clamped) as a whole read nests them.
class PerfettoConsumer : public ProcessConsumer {
 public:
  struct Output {
    const std::string* path;
    std::FILE* file = nullptr;
    absl::Status open_error;
    PerfettoExportFigures figures;
    std::unique_ptr<PerfettoTraceExport> exporter;
  };
  PerfettoConsumer(Output* output, size_t index) : output_(output), index_(index) {}
  void AddWindow(TraceModel window) override {
    if (Open()) output_->exporter->AddWindow(window, index_);
  }
  void AddSlice(TraceModel slice, const std::string&, size_t index) override {
    if (Open()) output_->exporter->AddSlice(slice, index_, WindowPart{index > 0, 0, 0, 0});
  }

 private:
  // False when the output cannot be written.
  bool Open() {
    if (!output_->exporter && output_->open_error.ok()) {
      output_->file = OpenOutput(*output_->path);
      if (output_->file == nullptr) {
        const int error = errno;
        output_->open_error =
            absl::ErrnoToStatus(error, absl::StrCat("cannot write ", *output_->path));
        return false;
      }
      output_->exporter = std::make_unique<PerfettoTraceExport>(output_->file, &output_->figures);
    }
    return output_->exporter != nullptr;
  }

  Output* output_;
  size_t index_;
};

absl::Status ExportPerfetto(const Inputs& inputs, const std::string& output,
                            const SliceOptions& slices, TimelineExport* result) {
  PerfettoConsumer::Output out;
  out.path = &output;
  // The exporter holds a window's rows (40 bytes each, plus the sort's buffer) before
  // nesting them: a file read whole at half the others' limit peaks below Chrome's export
  // (docs/benchmarks.md). A slice's rows (64K events) are few either way.
  RunOptions options;
  options.slices = slices;
  options.slices->whole_file_bytes = slices.whole_file_bytes / 2;
  const RunSummary run = RunProcesses(inputs, options, [&out](size_t i) {
    return std::make_unique<PerfettoConsumer>(&out, i);
  });
  result->unreadable = run.unreadable;
  if (!out.open_error.ok()) return out.open_error;
  if (!out.exporter) return absl::FailedPreconditionError("nothing could be read");
  absl::Status status = out.exporter->End();
  out.exporter.reset();
  const PerfettoExportFigures& figures = out.figures;
  result->summary = absl::StrCat(figures.packets, " packets (", figures.slices, " slices, ",
                                 figures.flows, " launch flows) in Perfetto's protobuf format");
  if (figures.clamped_slices) {
    absl::StrAppend(&result->summary, "; ", figures.clamped_slices,
                    " slices ended early where the next one on their track overlapped them");
  }
  return CloseOutput(out.file, output, status);
}

absl::Status WriteChrome(const Inputs& inputs, const SliceOptions& slices, OriginPass* pass,
                         std::FILE* out, std::string* summary) {
  ChromeExportFigures figures;
  ChromeTraceExport exporter(out, pass->origin, &figures);
  // Its unreadable files were reported by the origin pass.
  ExportWindows(inputs, slices, pass, &exporter);
  absl::Status status = exporter.End();
  *summary =
      absl::StrCat(figures.trace_events, " trace events and ", figures.flows, " launch flows");
  return status;
}

// One process's Kineto trace into `out`.
absl::Status WriteKinetoProcess(const ProcessFiles& process, const SliceOptions& slices,
                                OriginPass* pass, std::FILE* out, KinetoExportFigures* figures) {
  KinetoTraceExport exporter(out, pass->origin, figures);
  Inputs one;
  one.processes.push_back(process);
  ExportWindows(one, slices, pass, &exporter);
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

// Kineto traces are per process: one process goes to `output`; several go to one file each
// in the folder `output` (created if missing), as torch.profiler writes one per rank.
absl::Status WriteKineto(const std::vector<ProcessFiles>& processes, const SliceOptions& slices,
                         OriginPass* pass, const std::string& output, std::string* summary) {
  KinetoExportFigures figures;
  std::vector<std::string> paths = {output};
  if (processes.size() > 1) {
    if (output == "-") {
      return absl::InvalidArgumentError(
          absl::StrCat("the kineto format writes one file per process (", processes.size(),
                       " here): give a folder as --output"));
    }
    if (mkdir(output.c_str(), 0777) != 0 && errno != EEXIST) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot create the folder ", output));
    }
    paths.clear();
    for (const std::string& name : KinetoFileNames(processes))
      paths.push_back(absl::StrCat(output, "/", name));
  }
  for (size_t index = 0; index < processes.size(); ++index) {
    std::FILE* out = OpenOutput(paths[index]);
    if (out == nullptr)
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", paths[index]));
    absl::Status written = WriteKinetoProcess(processes[index], slices, pass, out, &figures);
    absl::Status status = CloseOutput(out, paths[index], std::move(written));
    if (!status.ok()) return status;
  }
  *summary =
      absl::StrCat(figures.trace_events, " trace events and ", figures.flows, " ac2g flows in ",
                   processes.size(), processes.size() == 1 ? " Kineto trace" : " Kineto traces");
  return absl::OkStatus();
}

}  // namespace

// Chrome and Kineto: two passes, the time origin (keeping what fits of the decoded
// windows, kKeptEvents) and then the events, process by process and window by window (a
// large window slice by slice). Perfetto: one pass.
absl::Status ExportTimeline(const std::vector<std::string>& paths, const std::string& output,
                            const std::string& format, TimelineExport* result,
                            const SliceOptions& slices) {
  if (format != "chrome" && format != "perfetto" && format != "kineto") {
    return absl::InvalidArgumentError(
        absl::StrCat("format: '", format, "' is not chrome, perfetto or kineto"));
  }
  absl::StatusOr<Inputs> inputs = OpenInputs(paths);
  if (!inputs.ok()) return inputs.status();
  if (format == "perfetto") return ExportPerfetto(*inputs, output, slices, result);
  OriginPass pass;
  if (!FindOrigin(*inputs, slices, &pass, &result->unreadable)) {
    return absl::FailedPreconditionError("nothing could be read");
  }
  if (format == "kineto")
    return WriteKineto(inputs->processes, slices, &pass, output, &result->summary);
  std::FILE* out = OpenOutput(output);
  if (out == nullptr) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot write ", output));
  }
  return CloseOutput(out, output, WriteChrome(*inputs, slices, &pass, out, &result->summary));
}

}  // namespace prof::analyzer
