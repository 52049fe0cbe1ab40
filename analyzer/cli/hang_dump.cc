#include "analyzer/cli/hang_dump.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <utility>

#include "analyzer/model/enum_names.h"
#include "analyzer/model/kernel_names.h"
#include "analyzer/summary/collective_table.h"
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

// " on stream 0x7f00" (empty for the legacy default stream, handle 0).
std::string OnStream(uint64_t stream) {
  if (stream == 0) return " on the default stream";
  char text[40];
  std::snprintf(text, sizeof(text), " on stream 0x%" PRIx64, stream);
  return text;
}

}  // namespace

void DumpBuilder::Add(const TraceModel& part) {
  if (!started_) {
    started_ = true;
    const trace::FileHeader& header = part.headers.front();
    const trace::FlightDump& flight = header.flight();
    dump_.rank = header.rank();
    dump_.world_size = header.world_size();
    dump_.host = header.host_name();
    dump_.pid = header.pid();
    dump_.reason = flight.reason();
    dump_.detail = flight.detail();
    dump_.losses = {flight.calls_overwritten(), flight.calls_torn(), flight.host_overwritten(),
                    flight.host_torn(), flight.host_threads_refused()};
    for (const trace::FlightUnfinishedCall& call : flight.unfinished())
      dump_.unfinished[{call.comm_hash(), call.sequence_number()}] = call.device_state();
    dump_ns_ = flight.dump_ns();
    if (flight.last_launches_size() > 0) {
      const trace::FlightLaunch& launch = flight.last_launches(0);  // latest first
      dump_.last.kernel = DemangleKernelName(launch.kernel()) + OnStream(launch.stream());
    }
  }
  for (const NcclCall& call : part.nccl_calls) {
    // The rank where the header has none: its place in the largest communicator it used.
    if (call.rank_count > largest_communicator_ && call.comm_rank >= 0) {
      largest_communicator_ = call.rank_count;
      if (dump_.rank < 0) dump_.rank = call.comm_rank;
    }
    if (IsGroupCall(call.operation) || call.sequence_number <= 0) continue;
    dump_.calls.collectives.push_back(HostCollectiveRecord(call));
    if (!last_call_ || call.start_ns >= last_call_->start_ns) last_call_ = call;
  }
  // What the rank did last (hang_analysis.h LastActivity): its latest API call, its
  // innermost range still open at the dump (an entry still running was written ending at
  // dump_ns), else the latest range begun. Steps and marks are not ranges here.
  const ApiCall* call = nullptr;  // this part's latest; a later part's wins a tie
  for (const ApiCall& candidate : part.api_calls) {
    if (!call || candidate.start_ns >= call->start_ns) call = &candidate;
  }
  if (call && (!api_call_ || call->start_ns >= api_call_->start_ns)) {
    api_call_ = Latest{call->start_ns, std::string(part.names.Get(call->name)) +
                                           (call->end_ns >= dump_ns_ ? " (running at the dump)"
                                                                     : " (returned)")};
  }
  const HostRange* range = nullptr;
  bool range_open = false;
  for (const HostRange& candidate : part.ranges) {
    // The step in progress at the dump is written too, marked open: not completed.
    if (candidate.type == RangeType::kProfileStep && candidate.sample_count != kStepOpenAtExit)
      dump_.last_step = std::max(dump_.last_step, candidate.step_number);
    if (candidate.type == RangeType::kProfileStep || candidate.type == RangeType::kMark) continue;
    const bool open = candidate.end_ns >= dump_ns_;
    if (range &&
        (range_open > open || (range_open == open && candidate.start_ns < range->start_ns)))
      continue;
    range = &candidate;
    range_open = open;
  }
  if (range && (!range_ || range_open_ < range_open ||
                (range_open_ == range_open && range->start_ns >= range_->start_ns))) {
    range_ = Latest{range->start_ns, std::string(part.names.Get(range->name))};
    range_open_ = range_open;
  }
}

RankDump DumpBuilder::Finish() {
  if (dump_.world_size <= 0) dump_.world_size = largest_communicator_;
  if (last_call_) dump_.last_call = Describe(*last_call_, dump_.unfinished);
  if (api_call_) dump_.last.api_call = api_call_->text;
  if (range_) dump_.last.range = range_->text + (range_open_ ? " (open at the dump)" : " (ended)");
  RankDump dump = std::move(dump_);
  *this = DumpBuilder();
  return dump;
}

RankDump DumpOf(const TraceModel& model) {
  DumpBuilder builder;
  builder.Add(model);
  return builder.Finish();
}

}  // namespace prof::analyzer
