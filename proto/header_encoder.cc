#include "proto/header_encoder.h"

#include "proto/trace_fields.h"

namespace prof {

using wire::PutInt32FieldIfNonZero;
using wire::PutStringFieldIfNonEmpty;
using wire::PutVarintFieldIfNonZero;

void EncodeClockAnchor(const ClockAnchorValue& anchor, wire::Buffer* out) {
  using F = field::ClockAnchor;
  PutVarintFieldIfNonZero(out, F::kHostMonotonicNs, anchor.host_monotonic_ns);
  PutVarintFieldIfNonZero(out, F::kHostRealtimeNs, anchor.host_realtime_ns);
  PutVarintFieldIfNonZero(out, F::kCuptiNs, anchor.cupti_ns);
  PutVarintFieldIfNonZero(out, F::kUncertaintyNs, anchor.uncertainty_ns);
  PutStringFieldIfNonEmpty(out, F::kReason, anchor.reason);
}

void EncodeCpuUsage(const CpuUsageValue& usage, wire::Buffer* out) {
  using F = field::CpuUsage;
  PutVarintFieldIfNonZero(out, F::kHostMonotonicNs, usage.host_monotonic_ns);
  PutVarintFieldIfNonZero(out, F::kProcessCpuNs, usage.process_cpu_ns);
  PutVarintFieldIfNonZero(out, F::kSystemBusyTicks, usage.system_busy_ticks);
  PutVarintFieldIfNonZero(out, F::kSystemIdleTicks, usage.system_idle_ticks);
  PutVarintFieldIfNonZero(out, F::kSystemKnown, usage.system_known ? 1 : 0);
}

// Small messages: encoded into a scratch buffer first, then copied after their length.
void PutClockAnchorField(wire::Buffer* out, uint32_t field, const ClockAnchorValue& anchor) {
  wire::Buffer body;
  EncodeClockAnchor(anchor, &body);
  wire::PutBytesField(out, field, body.view());
}

void PutCpuUsageField(wire::Buffer* out, uint32_t field, const CpuUsageValue& usage) {
  wire::Buffer body;
  EncodeCpuUsage(usage, &body);
  wire::PutBytesField(out, field, body.view());
}

namespace {

void PutFlightDumpField(wire::Buffer* out, uint32_t field, const FlightDumpValue& flight) {
  using F = field::FlightDump;
  using P = field::FlightUnfinishedCall;
  wire::Buffer body;
  PutStringFieldIfNonEmpty(&body, F::kReason, flight.reason);
  PutStringFieldIfNonEmpty(&body, F::kDetail, flight.detail);
  PutVarintFieldIfNonZero(&body, F::kDumpNs, flight.dump_ns);
  PutVarintFieldIfNonZero(&body, F::kCallsSeen, flight.calls_seen);
  PutVarintFieldIfNonZero(&body, F::kCallsOverwritten, flight.calls_overwritten);
  PutVarintFieldIfNonZero(&body, F::kCallsTorn, flight.calls_torn);
  PutVarintFieldIfNonZero(&body, F::kRingEntries, flight.ring_entries);
  wire::Buffer call;
  for (const FlightUnfinishedCallValue& pending : flight.unfinished) {
    call.clear();
    PutVarintFieldIfNonZero(&call, P::kCommHash, pending.comm_hash);
    PutVarintFieldIfNonZero(&call, P::kSequenceNumber,
                            static_cast<uint64_t>(pending.sequence_number));
    PutInt32FieldIfNonZero(&call, P::kOperation, pending.operation);
    PutVarintFieldIfNonZero(&call, P::kEnterNs, pending.enter_ns);
    PutVarintFieldIfNonZero(&call, P::kThreadId, pending.thread_id);
    PutInt32FieldIfNonZero(&call, P::kResult, pending.result);
    PutInt32FieldIfNonZero(&call, P::kDeviceState, pending.device_state);
    wire::PutBytesField(&body, F::kUnfinished, call.view());
  }
  PutVarintFieldIfNonZero(&body, F::kDeviceUntracked, flight.device_untracked);
  PutVarintFieldIfNonZero(&body, F::kHostEntries, flight.host_entries);
  PutVarintFieldIfNonZero(&body, F::kHostSeen, flight.host_seen);
  PutVarintFieldIfNonZero(&body, F::kHostOverwritten, flight.host_overwritten);
  PutVarintFieldIfNonZero(&body, F::kHostTorn, flight.host_torn);
  PutVarintFieldIfNonZero(&body, F::kHostThreadsRefused, flight.host_threads_refused);
  using L = field::FlightLaunch;
  for (const FlightLaunchValue& launch : flight.last_launches) {
    call.clear();
    PutVarintFieldIfNonZero(&call, L::kStream, launch.stream);
    PutStringFieldIfNonEmpty(&call, L::kKernel, launch.kernel);
    PutVarintFieldIfNonZero(&call, L::kLaunchNs, launch.launch_ns);
    PutVarintFieldIfNonZero(&call, L::kThreadId, launch.thread_id);
    wire::PutBytesField(&body, F::kLastLaunches, call.view());
  }
  // Field order, as protobuf's deterministic serialization writes it.
  PutVarintFieldIfNonZero(&body, F::kHostThreadsSmall, flight.host_threads_small);
  wire::PutBytesField(out, field, body.view());
}

}  // namespace

std::string EncodeFileHeader(const FileHeaderValue& header) {
  using F = field::FileHeader;
  wire::Buffer out;
  PutVarintFieldIfNonZero(&out, F::kFormatVersion, header.format_version);
  PutStringFieldIfNonEmpty(&out, F::kAgentVersion, header.agent_version);
  PutStringFieldIfNonEmpty(&out, F::kHostName, header.host_name);
  PutVarintFieldIfNonZero(&out, F::kPid, static_cast<uint64_t>(header.pid));
  PutInt32FieldIfNonZero(&out, F::kRank, header.rank);
  PutInt32FieldIfNonZero(&out, F::kWorldSize, header.world_size);
  PutInt32FieldIfNonZero(&out, F::kLocalRank, header.local_rank);
  PutStringFieldIfNonEmpty(&out, F::kWorkerName, header.worker_name);
  PutVarintFieldIfNonZero(&out, F::kWindowIndex, header.window_index);
  PutVarintFieldIfNonZero(&out, F::kWindowFirstStep,
                          static_cast<uint64_t>(header.window_first_step));
  PutVarintFieldIfNonZero(&out, F::kWindowEndStep, static_cast<uint64_t>(header.window_end_step));
  for (const ClockAnchorValue& anchor : header.clock_anchors) {
    PutClockAnchorField(&out, F::kClockAnchors, anchor);
  }
  // A map field is a repeated entry message {key, value}; libprotobuf writes both.
  wire::Buffer entry;
  for (const auto& [key, value] : header.config) {
    entry.clear();
    wire::PutBytesField(&entry, F::ConfigEntry::kKey, key);
    wire::PutBytesField(&entry, F::ConfigEntry::kValue, value);
    wire::PutBytesField(&out, F::kConfig, entry.view());
  }
  PutStringFieldIfNonEmpty(&out, F::kCommandLine, header.command_line);
  for (const CpuUsageValue& usage : header.cpu_usage) PutCpuUsageField(&out, F::kCpuUsage, usage);
  PutVarintFieldIfNonZero(&out, F::kWindowOrigin, static_cast<uint64_t>(header.window_origin));
  if (!header.flight.reason.empty()) PutFlightDumpField(&out, F::kFlight, header.flight);
  return std::string(out.view());
}

}  // namespace prof
