#include "agent/writer/flight_monitor.h"

#include <time.h>

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "agent/control/log.h"
#include "agent/record/flight_error.h"
#include "agent/record/flight_events.h"
#include "agent/record/flight_ring.h"
#include "agent/record/nccl_registry.h"
#include "agent/writer/flight_dump.h"

namespace prof {
namespace {

constexpr uint64_t kHangCheckPeriodNs = 100 * 1000 * 1000;

// "returned, enqueued on the GPU and not started" for a call whose kernel is pending.
std::string StateText(const FlightCall& call) {
  if (!call.returned) return "not returned";
  switch (call.device) {
    case FlightDeviceState::kEnqueued: return "returned, enqueued on the GPU, not started";
    case FlightDeviceState::kStarted: return "returned, started on the GPU, not completed";
    default: return "returned";
  }
}

std::string HangDetail(const FlightCall& call, uint64_t now_ns) {
  CommunicatorInfo info;
  const uint64_t hash = LookupCommunicator(call.arguments.comm, &info) ? info.comm_hash : 0;
  char text[320];
  std::snprintf(
      text, sizeof(text),
      "%s #%" PRId64 " on communicator %016" PRIx64 " entered %.1f s ago (thread %" PRIu64 "): %s",
      FlightOperationName(call.arguments.operation), call.arguments.sequence, hash,
      static_cast<double>(now_ns - call.enter_ns) / 1e9, call.thread_id, StateText(call).c_str());
  return text;
}

// The call with `ticket`, if the ring still holds it (a copy of the ring: once per process).
bool FindCall(uint64_t ticket, FlightCall* found) {
  for (const FlightCall& call : TakeFlightSnapshot().calls) {
    if (call.ticket != ticket) continue;
    *found = call;
    return true;
  }
  return false;
}

uint64_t RealtimeNs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

}  // namespace

const char* FlightOperationName(uint16_t operation) {
  static const char* const kNames[] = {"unspecified", "all-reduce",     "broadcast", "reduce",
                                       "all-gather",  "reduce-scatter", "send",      "recv",
                                       "all-to-all",  "group-start",    "group-end", "gather",
                                       "scatter"};
  return operation < sizeof(kNames) / sizeof(kNames[0]) ? kNames[operation] : "nccl call";
}

FlightMonitor::FlightMonitor(const Config& config, FileHeaderValue header)
    : folder_(config.flight_dir.empty() ? config.output_dir : config.flight_dir),
      worker_name_(config.worker_name),
      header_(std::move(header)),
      hang_ns_(static_cast<uint64_t>(config.flight_hang_s) * 1000000000ull),
      slow_steps_(config.flight_slow_factor),
      slow_steps_on_(config.flight_slow_factor > 0),
      trigger_folder_(config.flight_trigger_dir, config.worker_name, RealtimeNs()) {}

void FlightMonitor::Poll(uint64_t now_ns) {
  // The GPU side first (cudaEventQuery: never blocks), so the hang check sees it fresh.
  PollFlightEvents();
  CheckHang(now_ns);
  CheckSlowSteps(now_ns);
  CheckTriggerFolder(now_ns);
}

void FlightMonitor::CheckHang(uint64_t now_ns) {
  if (now_ns < next_check_ns_ || now_ns < hang_ns_) return;
  next_check_ns_ = now_ns + kHangCheckPeriodNs;
  FlightCall hung;
  if (!OldestUnfinishedBefore(now_ns - hang_ns_, &hung) || hung.ticket == dumped_hang_ticket_)
    return;
  dumped_hang_ticket_ = hung.ticket;
  const std::string detail = HangDetail(hung, now_ns);
  Log(LogLevel::kWarn, "flight recorder: possible hang: %s", detail.c_str());
  const std::string path = Dump("hang", detail, now_ns);
  // Every other rank of the job dumps too, the one the others wait for included.
  if (trigger_folder_.on() && !trigger_folder_.Announce("hang", path + ": " + detail)) {
    Log(LogLevel::kWarn, "flight recorder: cannot write to PROF_FLIGHT_TRIGGER_DIR");
  }
}

void FlightMonitor::CheckSlowSteps(uint64_t now_ns) {
  if (!slow_steps_on_) return;
  std::vector<FlightStepBoundary> steps;
  steps_read_ = FlightStepsAfter(steps_read_, &steps);
  for (const FlightStepBoundary& step : steps) {
    std::string detail;
    if (!slow_steps_.Add(step, &detail)) continue;
    if (last_slow_dump_ns_ != 0 && now_ns - last_slow_dump_ns_ < kSlowStepGapNs) {
      Log(LogLevel::kInfo, "flight recorder: slow step not dumped (one a %llu s): %s",
          static_cast<unsigned long long>(kSlowStepGapNs / 1000000000ull), detail.c_str());
      continue;
    }
    last_slow_dump_ns_ = now_ns;
    Log(LogLevel::kWarn, "flight recorder: slow step: %s", detail.c_str());
    Dump("slow-step", detail, now_ns);
  }
}

void FlightMonitor::CheckTriggerFolder(uint64_t now_ns) {
  std::string name;
  uint64_t mtime_ns = 0;
  if (!trigger_folder_.Poll(now_ns, &name, &mtime_ns)) return;
  if (last_dump_realtime_ns_ != 0 && last_dump_realtime_ns_ + kTriggerCoverNs >= mtime_ns) {
    Log(LogLevel::kInfo, "flight recorder: trigger file %s: dumped just before", name.c_str());
    return;
  }
  Dump("trigger file", name, now_ns);
}

void FlightMonitor::DumpOnNcclError(uint64_t now_ns) {
  int32_t result = 0;
  uint64_t ticket = 0;
  if (!TakeFlightError(&result, &ticket)) return;
  const std::string reason = std::string("nccl error: ") + NcclResultName(result);
  std::string detail;
  FlightCall call;
  if (FindCall(ticket, &call)) detail = HangDetail(call, now_ns);
  Log(LogLevel::kWarn, "flight recorder: %s %s", reason.c_str(), detail.c_str());
  Dump(reason, detail, now_ns);
}

std::string FlightMonitor::Dump(const std::string& reason, const std::string& detail,
                                uint64_t now_ns) {
  if (dumps_ >= kMaxDumps) {
    if (!warned_limit_) {
      Log(LogLevel::kWarn, "flight recorder: %u dumps written, no more (%s not dumped)", kMaxDumps,
          reason.c_str());
    }
    warned_limit_ = true;
    return "";
  }
  FlightDumpRequest request;
  request.path = FlightDumpPath(folder_, worker_name_, dumps_);
  request.header = header_;
  request.reason = reason;
  request.detail = detail;
  request.dump_ns = now_ns;
  PollFlightEvents();
  request.device_untracked = FlightEventsUntracked();
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  std::string error;
  ++dumps_;
  last_dump_realtime_ns_ = RealtimeNs();
  if (!WriteFlightDump(request, snapshot, &error)) {
    Log(LogLevel::kWarn, "flight recorder: cannot write %s: %s", request.path.c_str(),
        error.c_str());
    return "";
  }
  Log(LogLevel::kWarn,
      "flight recorder: %s: wrote %s (%zu NCCL calls, %" PRIu64 " older ones overwritten)",
      reason.c_str(), request.path.c_str(), snapshot.calls.size(), snapshot.overwritten);
  return request.path;
}

}  // namespace prof
