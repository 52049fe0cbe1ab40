#include "analyzer/cli/hang_command.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <utility>

#include "analyzer/cli/hang_render.h"
#include "analyzer/job/hang_analysis.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/kernel_names.h"
#include "analyzer/pipeline/run_processes.h"
#include "proto/events.h"

namespace prof::analyzer {
namespace {

bool IsGroupCall(schema::NcclOperation operation) {
  return operation == schema::NCCL_OPERATION_GROUP_START ||
         operation == schema::NCCL_OPERATION_GROUP_END;
}

// "ALL_REDUCE #24 on communicator 1a2b...: completed".
std::string Describe(const NcclCall& call,
                     const std::map<std::pair<uint64_t, int64_t>, int32_t>& unfinished) {
  char hash[20];
  std::snprintf(hash, sizeof(hash), "%016" PRIx64, call.comm_hash);
  const auto found = unfinished.find({call.comm_hash, call.sequence_number});
  return NcclOperationName(call.operation) + " #" + std::to_string(call.sequence_number) +
         " on communicator " + hash + ": " +
         (found == unfinished.end()
              ? "completed"
              : std::string("not completed (") + UnfinishedStateText(found->second) + ")");
}

// The process's rank and job size where the header has none: its place in the largest
// communicator it used.
void RankFromCommunicators(const TraceModel& model, RankDump* dump) {
  int32_t largest = 0;
  for (const NcclCall& call : model.nccl_calls) {
    if (call.rank_count <= largest || call.comm_rank < 0) continue;
    largest = call.rank_count;
    if (dump->rank < 0) dump->rank = call.comm_rank;
  }
  if (dump->world_size <= 0) dump->world_size = largest;
}

// " on stream 0x7f00" (empty for the legacy default stream, handle 0).
std::string OnStream(uint64_t stream) {
  if (stream == 0) return " on the default stream";
  char text[40];
  std::snprintf(text, sizeof(text), " on stream 0x%" PRIx64, stream);
  return text;
}

// What the rank did last (hang_analysis.h LastActivity): its latest API call, its innermost
// range still open at the dump (an entry still running was written ending at dump_ns),
// else the latest range begun, and the latest kernel launched, from the header's
// per-stream list. Steps and marks are not ranges here.
LastActivity LastActivityOf(const TraceModel& model, const trace::FlightDump& flight) {
  LastActivity last;
  const uint64_t dump_ns = flight.dump_ns();
  const ApiCall* call = nullptr;
  for (const ApiCall& candidate : model.api_calls) {
    if (!call || candidate.start_ns >= call->start_ns) call = &candidate;
  }
  if (call) {
    last.api_call = std::string(model.names.Get(call->name)) +
                    (call->end_ns >= dump_ns ? " (running at the dump)" : " (returned)");
  }
  const HostRange* range = nullptr;
  bool range_open = false;
  for (const HostRange& candidate : model.ranges) {
    if (candidate.type == RangeType::kProfileStep || candidate.type == RangeType::kMark) continue;
    const bool open = candidate.end_ns >= dump_ns;
    if (range &&
        (range_open > open || (range_open == open && candidate.start_ns < range->start_ns)))
      continue;
    range = &candidate;
    range_open = open;
  }
  if (range) {
    last.range = std::string(model.names.Get(range->name)) +
                 (range_open ? " (open at the dump)" : " (ended)");
  }
  if (flight.last_launches_size() > 0) {
    const trace::FlightLaunch& launch = flight.last_launches(0);  // latest first
    last.kernel = DemangleKernelName(launch.kernel()) + OnStream(launch.stream());
  }
  return last;
}

RankDump DumpOf(const TraceModel& model) {
  const trace::FileHeader& header = model.headers.front();
  RankDump dump;
  dump.rank = header.rank();
  dump.world_size = header.world_size();
  dump.host = header.host_name();
  dump.pid = header.pid();
  dump.reason = header.flight().reason();
  dump.detail = header.flight().detail();
  const trace::FlightDump& flight = header.flight();
  dump.losses = {flight.calls_overwritten(), flight.calls_torn(), flight.host_overwritten(),
                 flight.host_torn(), flight.host_threads_refused()};
  RankFromCommunicators(model, &dump);
  for (const trace::FlightUnfinishedCall& call : header.flight().unfinished()) {
    dump.unfinished[{call.comm_hash(), call.sequence_number()}] = call.device_state();
  }
  const NcclCall* last = nullptr;
  for (const NcclCall& call : model.nccl_calls) {
    if (IsGroupCall(call.operation) || call.sequence_number <= 0) continue;
    CollectiveRecord record;
    record.comm_hash = call.comm_hash;
    record.sequence = call.sequence_number;
    record.operation = call.operation;
    record.rank_count = call.rank_count;
    record.bytes = call.bytes;
    record.enter_ns = call.start_ns;
    record.end_ns = call.end_ns;
    dump.calls.collectives.push_back(record);
    if (!last || call.start_ns >= last->start_ns) last = &call;
  }
  if (last) dump.last_call = Describe(*last, dump.unfinished);
  for (const HostRange& range : model.ranges) {
    // The step in progress at the dump is written too, marked open: not completed.
    if (range.type == RangeType::kProfileStep && range.sample_count != kStepOpenAtExit)
      dump.last_step = std::max(dump.last_step, range.step_number);
  }
  dump.last = LastActivityOf(model, header.flight());
  return dump;
}

struct LoadedDumps {
  std::vector<RankDump> dumps;
  size_t not_flight = 0;
  std::vector<std::string> unreadable;
};

// Hang as a pipeline consumer: every window file's dump; per process (host, pid) only
// the latest (largest dump time). Processes are read one at a time (threads 1).
class DumpConsumer : public ProcessConsumer {
 public:
  using Latest = std::map<std::pair<std::string, int64_t>, std::pair<uint64_t, RankDump>>;
  DumpConsumer(Latest* latest, size_t* not_flight) : latest_(latest), not_flight_(not_flight) {}
  void AddWindow(TraceModel model) override {
    if (model.headers.empty() || !model.headers.front().has_flight()) {
      ++*not_flight_;
      return;
    }
    const trace::FileHeader& header = model.headers.front();
    auto key = std::make_pair(header.host_name(), header.pid());
    auto it = latest_->find(key);
    if (it != latest_->end() && it->second.first >= header.flight().dump_ns()) return;
    (*latest_)[key] = {header.flight().dump_ns(), DumpOf(model)};
  }

 private:
  Latest* latest_;
  size_t* not_flight_;
};

LoadedDumps LoadDumps(const Inputs& inputs) {
  LoadedDumps loaded;
  DumpConsumer::Latest latest;
  RunSummary run = RunProcesses(inputs, RunOptions{}, [&](size_t) {
    return std::make_unique<DumpConsumer>(&latest, &loaded.not_flight);
  });
  loaded.unreadable = std::move(run.unreadable);
  for (auto& [key, entry] : latest) loaded.dumps.push_back(std::move(entry.second));
  return loaded;
}

}  // namespace

CLI::App* AddHangCommand(CLI::App* app, HangCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "hang",
      "name the rank(s) a hung job waits for, from its flight-recorder dumps (PROF_FLIGHT=1)");
  command->add_option("paths", options->paths, "flight dumps or folders holding them")->required();
  command->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return command;
}

int RunHangCommand(const HangCommandOptions& options) {
  absl::StatusOr<Inputs> inputs = OpenInputs(options.paths);
  if (!inputs.ok()) {
    std::fprintf(stderr, "profanalyze hang: %s\n", std::string(inputs.status().message()).c_str());
    return 2;
  }
  LoadedDumps loaded = LoadDumps(*inputs);
  for (const std::string& message : loaded.unreadable)
    std::fprintf(stderr, "profanalyze hang: %s\n", message.c_str());
  if (loaded.not_flight > 0) {
    std::fprintf(stderr, "profanalyze hang: %zu trace file(s) are not flight dumps; skipped\n",
                 loaded.not_flight);
  }
  if (loaded.dumps.empty()) {
    std::fprintf(stderr, "profanalyze hang: no flight dump found (run with PROF_FLIGHT=1)\n");
    return 1;
  }
  const HangReport report = AnalyzeHang(std::move(loaded.dumps));
  const std::string out =
      options.format == "json" ? RenderHangJson(report) : RenderHangText(report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace prof::analyzer
