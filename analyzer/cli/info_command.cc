#include "analyzer/cli/info_command.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/pipeline/run_processes.h"
#include "analyzer/render/text_renderer.h"
#include "analyzer/summary/data_quality_summary.h"

namespace prof::analyzer {
namespace {

// What opened a window, when it was not the schedule.
const char* WindowOriginNote(int origin) {
  switch (origin) {
    case trace::WINDOW_ORIGIN_API: return ", opened by prof_start";
    case trace::WINDOW_ORIGIN_TRIGGER: return ", opened by an on-demand trigger";
    case trace::WINDOW_ORIGIN_PROGRAM:
      return ", opened by the program's scheduler (libprof.Profiler)";
    default: return "";
  }
}

// A flight dump's reason and what its ring held and lost (nothing silently dropped).
std::string FlightLine(const trace::FileHeader& header) {
  if (!header.has_flight()) return "";
  const trace::FlightDump& flight = header.flight();
  std::string text = absl::StrFormat(
      "  flight dump: %s%s%s; %d NCCL call(s) seen, %d overwritten by the ring of %d, %d torn, "
      "%d unfinished, %d not followed on the GPU\n",
      flight.reason(), flight.detail().empty() ? "" : ": ", flight.detail(), flight.calls_seen(),
      flight.calls_overwritten(), flight.ring_entries(), flight.calls_torn(),
      flight.unfinished_size(), flight.device_untracked());
  if (flight.host_entries() > 0) {
    absl::StrAppendFormat(&text,
                          "  flight host activity: %d CUDA call(s) and range(s) seen, %d "
                          "overwritten by the rings of %d per thread, %d torn, %d thread(s) on "
                          "a small ring, %d thread(s) without a ring\n",
                          flight.host_seen(), flight.host_overwritten(), flight.host_entries(),
                          flight.host_torn(), flight.host_threads_small(),
                          flight.host_threads_refused());
  }
  return text;
}

std::string HeaderLines(const TraceModel& model) {
  std::string text;
  for (size_t i = 0; i < model.headers.size(); ++i) {
    const trace::FileHeader& header = model.headers[i];
    absl::StrAppendFormat(
        &text, "file: %s\n  format %d, agent %s, host %s, pid %d, rank %d/%d, worker %s\n",
        model.files[i], header.format_version(), header.agent_version(), header.host_name(),
        header.pid(), header.rank(), header.world_size(), header.worker_name());
    absl::StrAppendFormat(
        &text, "  window %d, steps [%d, %d), %d clock anchor(s) in the header%s\n",
        header.window_index(), header.window_first_step(), header.window_end_step(),
        header.clock_anchors_size(), WindowOriginNote(header.window_origin()));
    if (!header.command_line().empty())
      absl::StrAppend(&text, "  command: ", header.command_line(), "\n");
    absl::StrAppend(&text, FlightLine(header));
  }
  return text;
}

// What info prints for one process, accumulated one file at a time.
struct ProcessInfo {
  std::string header_lines;
  std::map<std::string, uint64_t> counts;
  uint64_t first = std::numeric_limits<uint64_t>::max();
  uint64_t last = 0;
  uint64_t event_count = 0;
  DataQuality quality;
};

void AddCounts(const TraceModel& model, ProcessInfo* info) {
  std::map<std::string, uint64_t>& counts = info->counts;
  auto span = [&](uint64_t start, uint64_t end) {
    info->first = std::min(info->first, start);
    info->last = std::max(info->last, end);
  };
  for (const HostRange& range : model.ranges) {
    ++counts[absl::StrCat("range: ", RangeTypeName(range.type))];
    span(range.start_ns, range.end_ns);
  }
  for (const ApiCall& call : model.api_calls) {
    ++counts[call.driver ? "api call: driver" : "api call: runtime"];
    span(call.start_ns, call.end_ns);
  }
  for (const DeviceActivity& activity : model.device_activities) {
    ++counts[absl::StrCat("device: ", DeviceKindName(activity.kind))];
    span(activity.start_ns, activity.end_ns);
  }
  counts["nccl call"] += model.nccl_calls.size();
  counts["memory"] += model.memory.size();
  info->event_count += model.event_count;
}

std::string CountLines(const ProcessInfo& info) {
  std::string text = absl::StrFormat("events: %d\n", info.event_count);
  for (const auto& [kind, count] : info.counts) {
    if (count) absl::StrAppendFormat(&text, "  %-26s %d\n", kind, count);
  }
  if (info.first < info.last) {
    absl::StrAppendFormat(&text, "time span: %.6f s (host clock %d .. %d ns)\n",
                          (info.last - info.first) / 1e9, info.first, info.last);
  }
  return text;
}

// The text of one process: its header lines, counts and data quality.
std::string ProcessText(const ProcessInfo& info) {
  std::string text = absl::StrCat(info.header_lines, CountLines(info));
  std::optional<SummaryTable> quality = DataQualitySummary(info.quality);
  if (quality) {
    absl::StrAppend(&text, "\n", RenderTable(*quality, TimeUnit::kMilliseconds));
  } else {
    absl::StrAppend(
        &text,
        "data quality: perfect (every chunk read, nothing lost, every device record matched)\n");
    for (const std::string& line : info.quality.clock_lines)
      absl::StrAppend(&text, "clock: ", line, "\n");
    absl::StrAppend(&text, "\n");
  }
  return text;
}

// Info as a pipeline consumer: counts a process's windows one at a time, then prints its
// unreadable files (stderr) and its text (stdout), process by process.
class InfoConsumer : public ProcessConsumer {
 public:
  explicit InfoConsumer(bool* any) : any_(any) {}
  void AddWindow(TraceModel model) override {
    absl::StrAppend(&info_.header_lines, HeaderLines(model));
    AddCounts(model, &info_);
    info_.quality.Add(model.quality);
  }
  // A large file's slices all carry its header: it is printed once, with the first.
  void AddSlice(TraceModel slice, const std::string& path, size_t index) override {
    if (index > 0) slice.headers.clear();
    AddWindow(std::move(slice));
  }
  void Finish(const ProcessOutcome& outcome) override {
    for (const std::string& message : outcome.unreadable) {
      std::fprintf(stderr, "profanalyze info: %s\n", message.c_str());
    }
    if (outcome.files_read == 0) return;
    *any_ = true;
    std::fputs(ProcessText(info_).c_str(), stdout);
  }

 private:
  ProcessInfo info_;
  bool* any_;
};

}  // namespace

CLI::App* AddInfoCommand(CLI::App* app, InfoCommandOptions* options) {
  CLI::App* command =
      app->add_subcommand("info", "header, event counts per kind, time span, data quality");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  return command;
}

int RunInfoCommand(const InfoCommandOptions& options) {
  absl::StatusOr<Inputs> inputs = OpenInputs(options.paths);
  if (!inputs.ok()) {
    std::fprintf(stderr, "profanalyze info: %s\n", std::string(inputs.status().message()).c_str());
    return 1;
  }
  for (const std::string& message : inputs->unreadable)
    std::fprintf(stderr, "profanalyze info: %s\n", message.c_str());
  bool any = false;
  // One process at a time, printed as it finishes (threads 1: in order).
  RunOptions run;
  run.slices = options.slices;
  RunProcesses(*inputs, run, [&any](size_t) { return std::make_unique<InfoConsumer>(&any); });
  if (!any) {
    std::fprintf(stderr, "profanalyze info: nothing could be read\n");
    return 1;
  }
  return 0;
}

}  // namespace prof::analyzer
