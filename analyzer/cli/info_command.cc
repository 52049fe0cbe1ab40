#include "analyzer/cli/info_command.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/cli/load_inputs.h"
#include "analyzer/render/text_renderer.h"
#include "analyzer/summary/data_quality_summary.h"

namespace prof::analyzer {
namespace {

std::string HeaderLines(const TraceModel& model) {
  std::string text;
  for (size_t i = 0; i < model.headers.size(); ++i) {
    const trace::FileHeader& header = model.headers[i];
    absl::StrAppendFormat(&text, "file: %s\n  format %d, agent %s, host %s, pid %d, rank %d/%d, worker %s\n",
                          model.files[i], header.format_version(), header.agent_version(), header.host_name(),
                          header.pid(), header.rank(), header.world_size(), header.worker_name());
    absl::StrAppendFormat(&text, "  window %d, steps [%d, %d), %d clock anchor(s) in the header\n",
                          header.window_index(), header.window_first_step(), header.window_end_step(),
                          header.clock_anchors_size());
    if (!header.command_line().empty()) absl::StrAppend(&text, "  command: ", header.command_line(), "\n");
  }
  return text;
}

std::string CountLines(const TraceModel& model) {
  std::map<std::string, uint64_t> counts;
  uint64_t first = std::numeric_limits<uint64_t>::max(), last = 0;
  auto span = [&](uint64_t start, uint64_t end) {
    first = std::min(first, start);
    last = std::max(last, end);
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
  std::string text = absl::StrFormat("events: %d\n", model.event_count);
  for (const auto& [kind, count] : counts) {
    if (count) absl::StrAppendFormat(&text, "  %-26s %d\n", kind, count);
  }
  if (first < last) {
    absl::StrAppendFormat(&text, "time span: %.6f s (host clock %d .. %d ns)\n", (last - first) / 1e9, first, last);
  }
  return text;
}

}  // namespace

CLI::App* AddInfoCommand(CLI::App* app, InfoCommandOptions* options) {
  CLI::App* command = app->add_subcommand("info", "header, event counts per kind, time span, data quality");
  command->add_option("PATH", options->paths, "trace files or folders of them")->required();
  return command;
}

int RunInfoCommand(const InfoCommandOptions& options) {
  absl::StatusOr<LoadedInputs> inputs = LoadInputs(options.paths);
  if (!inputs.ok()) {
    std::fprintf(stderr, "profanalyze info: %s\n", std::string(inputs.status().message()).c_str());
    return 1;
  }
  for (const std::string& message : inputs->unreadable) std::fprintf(stderr, "profanalyze info: %s\n", message.c_str());
  if (inputs->processes.empty()) {
    std::fprintf(stderr, "profanalyze info: nothing could be read\n");
    return 1;
  }
  for (const TraceModel& model : inputs->processes) {
    std::string text = absl::StrCat(HeaderLines(model), CountLines(model));
    std::optional<SummaryTable> quality = DataQualitySummary(model.quality);
    if (quality) {
      absl::StrAppend(&text, "\n", RenderTable(*quality, TimeUnit::kMilliseconds));
    } else {
      absl::StrAppend(&text, "data quality: perfect (every chunk read, nothing lost, every device record matched)\n");
      for (const std::string& line : model.quality.clock_lines) absl::StrAppend(&text, "clock: ", line, "\n");
      absl::StrAppend(&text, "\n");
    }
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace prof::analyzer
