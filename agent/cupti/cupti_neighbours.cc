#include "agent/cupti/cupti_neighbours.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "agent/record/clock.h"
#include "agent/record/writer_doorbell.h"

namespace prof {
namespace {

constexpr uint64_t kWaitNs = 2000000000;
// A program's trace with no kind enabled and no flush for this long has ended.
constexpr uint64_t kIdleTraceNs = 1000000000;

std::atomic<bool> g_agent_holds{false};
std::atomic<bool> g_agent_waits{false};
std::atomic<bool> g_foreign_trace{false};
std::atomic<uint64_t> g_foreign_kinds{0};     // bit per kind (63: kind 63 and above)
std::atomic<uint64_t> g_foreign_waiting{0};   // host-side kinds waiting for its trace
std::atomic<uint64_t> g_foreign_idle_ns{0};   // when its last kind was disabled
std::atomic<CUpti_BuffersCallbackRequestFunc> g_foreign_requested{nullptr};
std::atomic<CUpti_BuffersCallbackCompleteFunc> g_foreign_completed{nullptr};
// Requests and acknowledgments (request numbers; acknowledged >= asked: done).
std::atomic<uint64_t> g_release_asked{0};
std::atomic<uint64_t> g_release_done{0};
std::atomic<uint64_t> g_take_asked{0};
std::atomic<uint64_t> g_take_done{0};

uint64_t BitOf(CUpti_ActivityKind kind) {
  const uint32_t index = static_cast<uint32_t>(kind);
  return uint64_t{1} << (index < 63 ? index : 63);
}

// Kinds whose records are the device's work (or, SYNCHRONIZATION, waits for it): a
// program's trace with one of these takes the activity API.
bool IsDeviceKind(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_MEMCPY:
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
    case CUPTI_ACTIVITY_KIND_MEMSET:
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return true;
    default:
      return false;
  }
}

// Rings the writer and waits until `done` reaches `ask`, or `moot` says there is nothing
// to wait for; false after 2 s.
template <typename Moot>
bool WaitFor(const std::atomic<uint64_t>& done, uint64_t ask, Moot moot) {
  TheWriterDoorbell().Ring();
  const uint64_t deadline = MonotonicNs() + kWaitNs;
  while (done.load(std::memory_order_acquire) < ask) {
    if (moot()) return true;
    if (MonotonicNs() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// The program's trace begins: libprof lets go of the activity API first (rule 2).
bool BeginForeignTrace() {
  g_foreign_idle_ns.store(MonotonicNs(), std::memory_order_relaxed);
  g_foreign_trace.store(true, std::memory_order_release);
  if (!g_agent_holds.load(std::memory_order_acquire)) return true;
  const uint64_t ask = g_release_asked.fetch_add(1, std::memory_order_acq_rel) + 1;
  return WaitFor(g_release_done, ask,
                 [] { return !g_agent_holds.load(std::memory_order_acquire); });
}

}  // namespace

ForeignCall ForeignRegisters(CUpti_BuffersCallbackRequestFunc requested,
                             CUpti_BuffersCallbackCompleteFunc completed, bool* in_time) {
  g_foreign_requested.store(requested, std::memory_order_release);
  g_foreign_completed.store(completed, std::memory_order_release);
  *in_time = true;
  if (!g_foreign_trace.load(std::memory_order_acquire) && AgentNeedsCupti()) {
    return ForeignCall::kDefer;
  }
  *in_time = BeginForeignTrace();
  return ForeignCall::kPass;
}

ForeignCall ForeignEnables(CUpti_ActivityKind kind, ForeignTraceBegin* begin) {
  *begin = ForeignTraceBegin();
  if (g_foreign_trace.load(std::memory_order_acquire)) return ForeignCall::kPass;
  if (!IsDeviceKind(kind) && AgentNeedsCupti()) {
    g_foreign_waiting.fetch_or(BitOf(kind), std::memory_order_acq_rel);
    return ForeignCall::kDefer;
  }
  begin->began = true;
  begin->in_time = BeginForeignTrace();
  begin->requested = g_foreign_requested.load(std::memory_order_acquire);
  begin->completed = g_foreign_completed.load(std::memory_order_acquire);
  begin->waiting_kinds = g_foreign_waiting.exchange(0, std::memory_order_acq_rel);
  return ForeignCall::kPass;
}

void NoteForeignKind(CUpti_ActivityKind kind, bool enabled) {
  if (enabled) {
    g_foreign_kinds.fetch_or(BitOf(kind), std::memory_order_acq_rel);
  } else if ((g_foreign_kinds.fetch_and(~BitOf(kind), std::memory_order_acq_rel) &
              ~BitOf(kind)) == 0) {
    g_foreign_idle_ns.store(MonotonicNs(), std::memory_order_relaxed);
  }
}

bool ForeignDisables(CUpti_ActivityKind kind) {
  if (g_foreign_waiting.fetch_and(~BitOf(kind), std::memory_order_acq_rel) & BitOf(kind)) {
    return false;
  }
  return (g_foreign_kinds.load(std::memory_order_acquire) & BitOf(kind)) != 0 ||
         !g_agent_holds.load(std::memory_order_acquire);
}

void AfterForeignFlush() {
  if (g_foreign_kinds.load(std::memory_order_acquire) != 0) return;
  if (!g_foreign_trace.exchange(false, std::memory_order_acq_rel)) return;
  if (!g_agent_waits.load(std::memory_order_acquire)) {
    TheWriterDoorbell().Ring();
    return;
  }
  const uint64_t ask = g_take_asked.fetch_add(1, std::memory_order_acq_rel) + 1;
  WaitFor(g_take_done, ask, [] {
    return !g_agent_waits.load(std::memory_order_acquire) ||
           g_foreign_trace.load(std::memory_order_acquire);
  });
}

bool ProgramTakesRecords(CUpti_BuffersCallbackRequestFunc* requested,
                         CUpti_BuffersCallbackCompleteFunc* completed) {
  if (!g_foreign_trace.load(std::memory_order_acquire) ||
      g_agent_holds.load(std::memory_order_acquire)) {
    return false;
  }
  *requested = g_foreign_requested.load(std::memory_order_acquire);
  *completed = g_foreign_completed.load(std::memory_order_acquire);
  return *requested != nullptr && *completed != nullptr;
}

CUpti_BuffersCallbackCompleteFunc ProgramBufferCompleted() {
  return g_foreign_completed.load(std::memory_order_acquire);
}

bool AgentTakesRecords() { return g_agent_holds.load(std::memory_order_acquire); }

bool AgentNeedsCupti() {
  return g_agent_holds.load(std::memory_order_acquire) ||
         g_agent_waits.load(std::memory_order_acquire);
}

bool ForeignTraceRuns() {
  if (!g_foreign_trace.load(std::memory_order_acquire)) return false;
  if (g_foreign_kinds.load(std::memory_order_acquire) != 0) return true;
  if (MonotonicNs() - g_foreign_idle_ns.load(std::memory_order_relaxed) < kIdleTraceNs) {
    return true;
  }
  g_foreign_trace.store(false, std::memory_order_release);
  return false;
}

bool ReleaseRequested() {
  return g_release_done.load(std::memory_order_acquire) <
         g_release_asked.load(std::memory_order_acquire);
}

void NoteAgentHoldsCupti(bool holds) {
  if (holds) {
    g_take_done.store(g_take_asked.load(std::memory_order_acquire), std::memory_order_release);
  } else {
    g_release_done.store(g_release_asked.load(std::memory_order_acquire),
                         std::memory_order_release);
  }
  g_agent_holds.store(holds, std::memory_order_release);
}

void NoteAgentWaits(bool waits) {
  g_agent_waits.store(waits, std::memory_order_release);
  if (!waits) {
    g_take_done.store(g_take_asked.load(std::memory_order_acquire), std::memory_order_release);
  }
}

void ResetNeighboursAfterFork() {
  g_agent_holds.store(false, std::memory_order_relaxed);
  g_agent_waits.store(false, std::memory_order_relaxed);
}

}  // namespace prof
