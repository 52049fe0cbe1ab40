#include "agent/record/host_clock_calibration.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "agent/control/log.h"

namespace prof {

namespace internal {
HostClock g_host_clock;  // constant-initialized: readable before any constructor runs
thread_local uint64_t t_clock_floor __attribute__((tls_model("initial-exec"))) = 0;
std::atomic<uint64_t> g_ordered_floor{0};
}  // namespace internal

using u128 = unsigned __int128;

uint64_t MeasuredMult(const ClockPair& from, const ClockPair& to) {
  const uint64_t ticks = to.tsc - from.tsc;
  const uint64_t ns = to.ns - from.ns;
  return static_cast<uint64_t>((static_cast<u128>(ns) << 32) / ticks);
}

TscSegment FirstSegment(const ClockPair& baseline, const ClockPair& now) {
  TscSegment segment;
  segment.tsc0 = now.tsc;
  // The upper end of the bracket: every clock_gettime read made before this segment was
  // published returned at most this (plus the time since), so the switch never goes back.
  segment.ns0 = now.ns + now.uncertainty_ns;
  segment.mult = MeasuredMult(baseline, now);
  return segment;
}

TscSegment NextSegment(const TscSegment& current, const ClockPair& baseline, const ClockPair& now,
                       uint64_t horizon_ns) {
  const uint64_t at_now = TscToNs(current, now.tsc);
  const uint64_t rate = MeasuredMult(baseline, now);
  const int64_t ahead = static_cast<int64_t>(at_now - now.ns);  // > 0: the TSC clock leads
  const uint64_t offset =
      ahead < 0 ? 0 - static_cast<uint64_t>(ahead) : static_cast<uint64_t>(ahead);
  // Removing `offset` over the ticks of one horizon at the measured rate.
  const u128 horizon_ticks = std::max<u128>(1, (static_cast<u128>(horizon_ns) << 32) / rate);
  const u128 needed = (static_cast<u128>(offset) << 32) / horizon_ticks;
  const uint64_t limit = rate / 1000 * kMaxSlewPerMille;
  const uint64_t correction = needed < limit ? static_cast<uint64_t>(needed) : limit;
  TscSegment segment;
  segment.tsc0 = now.tsc;
  segment.ns0 = at_now;  // continuous with `current`
  segment.mult = ahead > 0 ? rate - correction : rate + correction;
  return segment;
}

TscSegment StartAt(const TscSegment& line, uint64_t tsc, uint64_t mult) {
  TscSegment segment;
  segment.tsc0 = tsc;
  // Rounded up: a reader still on `line` just after `tsc` gets floor(line), and the new
  // segment's floor(ceil(line at tsc) + ...) is never below it (rounded down, 1 ns could be).
  segment.ns0 = TscToNs(line, tsc);
  if (tsc > line.tsc0 &&
      static_cast<uint32_t>(static_cast<u128>(tsc - line.tsc0) * line.mult) != 0) {
    ++segment.ns0;
  }
  segment.mult = mult;
  return segment;
}

bool HostClockCalibrator::Update(const ClockPair& now, const TscSegment* published,
                                 TscSegment* segment) {
  if (now.uncertainty_ns > kMaxPairUncertaintyNs) return false;
  if (!have_baseline_) {
    baseline_ = now;
    have_baseline_ = true;
    next_due_ns_ = now.ns + first_after_ns_;
    return false;
  }
  if (now.ns < next_due_ns_ || now.tsc <= baseline_.tsc) return false;
  const uint64_t uncertainty = baseline_.uncertainty_ns + now.uncertainty_ns;
  if (!published && uncertainty * kSpanPerUncertainty > now.ns - baseline_.ns) return false;
  *segment = published ? NextSegment(*published, baseline_, now, refine_every_ns_)
                       : FirstSegment(baseline_, now);
  next_due_ns_ = now.ns + refine_every_ns_;
  return true;
}

bool CpuHasInvariantTsc() {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
  if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return false;
  return (d & (1u << 8)) != 0;
#else
  return false;
#endif
}

namespace {

enum Decision : int { kUndecided = 0, kUseTsc = 1, kUseSystem = 2 };

std::atomic<bool> g_allow_tsc{true};
std::atomic<int> g_decision{kUndecided};
// Held by the one thread refining; the calibrator below is its (guarded) state.
std::atomic<bool> g_refining{false};
HostClockCalibrator g_calibrator(kFirstAfterNs, kRefineEveryNs);

// "tsc" where the kernel says; unknown (no /sys) leaves the decision to the CPUID bit.
bool KernelClocksourceIsTscOrUnknown() {
  const int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                      O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  char text[32] = {};
  const ssize_t length = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (length <= 0) return true;
  return std::strncmp(text, "tsc", 3) == 0 && (text[3] == '\n' || text[3] == '\0');
}

int Decide() {
  if (!g_allow_tsc.load(std::memory_order_relaxed)) {
    Log(LogLevel::kInfo, "host clock: clock_gettime (PROF_CLOCK=monotonic)");
    return kUseSystem;
  }
  if (!CpuHasInvariantTsc()) {
    Log(LogLevel::kInfo, "host clock: clock_gettime (the CPU reports no invariant TSC)");
    return kUseSystem;
  }
  if (!KernelClocksourceIsTscOrUnknown()) {
    Log(LogLevel::kInfo, "host clock: clock_gettime (the kernel's clocksource is not the TSC)");
    return kUseSystem;
  }
  return kUseTsc;
}

uint64_t OrderedTsc() {
#if defined(__x86_64__)
  _mm_lfence();
  const uint64_t tsc = __rdtsc();
  _mm_lfence();
  return tsc;
#else
  return 0;
#endif
}

// The tightest of a few clock_gettime brackets around a TSC read.
ClockPair ReadClockPair() {
  ClockPair best;
  uint64_t best_width = UINT64_MAX;
  for (int attempt = 0; attempt < 7; ++attempt) {
    const uint64_t before = SystemMonotonicNs();
    const uint64_t tsc = OrderedTsc();
    const uint64_t after = SystemMonotonicNs();
    const uint64_t width = after - before;
    if (width >= best_width) continue;
    best_width = width;
    best.tsc = tsc;
    best.ns = before + width / 2;
    best.uncertainty_ns = width - width / 2;  // ns + uncertainty_ns == after
  }
  return best;
}

// The segment in use (calibrating thread only: it is the one that writes the slots).
bool PublishedSegment(TscSegment* segment) {
  const internal::HostClock& clock = internal::g_host_clock;
  const uint64_t generation = clock.generation.load(std::memory_order_relaxed);
  if (generation == 0) return false;
  const internal::HostClockSlot& slot = clock.slots[generation % internal::kHostClockSlots];
  segment->tsc0 = slot.tsc0.load(std::memory_order_relaxed);
  segment->ns0 = slot.ns0.load(std::memory_order_relaxed);
  segment->mult = slot.mult.load(std::memory_order_relaxed);
  return true;
}

// Fills the slot after the current one (no reader uses it before the commit below).
uint64_t Fill(const TscSegment& segment) {
  internal::HostClock& clock = internal::g_host_clock;
  const uint64_t next = clock.generation.load(std::memory_order_relaxed) + 1;
  internal::HostClockSlot& slot = clock.slots[next % internal::kHostClockSlots];
  // Release: a reader that loads one of these values (acquire) also sees the generations
  // published before, so its check fails if it was still using this slot's old segment.
  slot.tsc0.store(segment.tsc0, std::memory_order_release);
  slot.ns0.store(segment.ns0, std::memory_order_release);
  slot.mult.store(segment.mult, std::memory_order_release);
  return next;
}

// Makes the filled slot current (see clock.h).
void Commit(uint64_t generation) {
  internal::g_host_clock.generation.store(generation, std::memory_order_release);
}

void Publish(const TscSegment& segment) { Commit(Fill(segment)); }

}  // namespace

uint64_t LeadTicks(uint64_t mult) {
  return static_cast<uint64_t>((static_cast<u128>(kJointLeadNs) << 32) / mult);
}

bool PublishAhead(const TscSegment& segment, uint64_t lead_ticks) {
  const uint64_t generation = Fill(segment);
  // The check and the commit are adjacent: see clock.h for the one preemption left.
  if (OrderedTsc() + lead_ticks / 2 > segment.tsc0) return false;
  Commit(generation);
  return true;
}

void PublishSegmentForTest(const TscSegment& segment) { Publish(segment); }

uint64_t HostClockGenerationForTest() {
  return internal::g_host_clock.generation.load(std::memory_order_acquire);
}

void ConfigureHostClock(bool allow_tsc) { g_allow_tsc.store(allow_tsc, std::memory_order_relaxed); }

void RefineHostClock() {
  int decision = g_decision.load(std::memory_order_acquire);
  if (decision == kUseSystem) return;
  if (g_refining.exchange(true, std::memory_order_acquire)) return;  // another writer is at it
  if (decision == kUndecided) {
    decision = Decide();
    g_decision.store(decision, std::memory_order_release);
  }
  TscSegment published;
  const bool have_published = decision == kUseTsc && PublishedSegment(&published);
  // Not while the published segment's joint is still ahead (its line is not in use yet).
  const bool joint_passed = !have_published || OrderedTsc() >= published.tsc0;
  if (decision == kUseTsc && joint_passed && SystemMonotonicNs() >= g_calibrator.next_due_ns()) {
    const ClockPair now = ReadClockPair();
    TscSegment segment;
    if (g_calibrator.Update(now, have_published ? &published : nullptr, &segment)) {
      if (have_published) {
        const uint64_t lead = LeadTicks(segment.mult);
        segment = StartAt(published, OrderedTsc() + lead, segment.mult);
        if (!PublishAhead(segment, lead)) g_calibrator.RetryNow();  // preempted: next pass
      } else {
        segment = StartAt(segment, OrderedTsc(), segment.mult);
        Publish(segment);  // the first: from clock_gettime, no previous line to keep
      }
      if (!have_published) {
        Log(LogLevel::kDebug, "host clock: invariant TSC at %.6f GHz, fitted to CLOCK_MONOTONIC",
            4294967296.0 / static_cast<double>(segment.mult));
      } else if (LogEnabled(LogLevel::kDebug)) {
        Log(LogLevel::kDebug, "host clock: %+lld ns from CLOCK_MONOTONIC (+-%llu), corrected",
            static_cast<long long>(TscToNs(published, now.tsc) - now.ns),
            static_cast<unsigned long long>(now.uncertainty_ns));
      }
    }
  }
  g_refining.store(false, std::memory_order_release);
}

bool HostClockUsesTsc() {
  return internal::g_host_clock.generation.load(std::memory_order_acquire) != 0;
}

void ResetHostClockAfterFork() {
  g_calibrator = HostClockCalibrator(kFirstAfterNs, kRefineEveryNs);  // plain stores
  g_refining.store(false, std::memory_order_relaxed);
}

void ResetHostClockForTest(bool allow_tsc, uint64_t first_after_ns, uint64_t refine_every_ns) {
  internal::g_host_clock.generation.store(0, std::memory_order_release);
  internal::g_ordered_floor.store(0);
  internal::t_clock_floor = 0;  // the calling thread's
  g_allow_tsc.store(allow_tsc);
  g_decision.store(kUndecided);
  g_calibrator = HostClockCalibrator(first_after_ns, refine_every_ns);
  g_refining.store(false);
}

}  // namespace prof
