// The agent's timestamps: CLOCK_MONOTONIC nanoseconds. Every host event uses this clock;
// the trace header's clock anchors relate it to CLOCK_REALTIME and to CUPTI's clock.
//
// Why not just clock_gettime: two reads per intercepted call were most of the hook's cost
// (~20 ns each through the vDSO, which orders its TSC read with LFENCE and runs a seqlock
// and a conversion). So, as Tracy does, MonotonicNs() reads the invariant TSC itself
// (RDTSC, not ordered: a few cycles of skew against the neighbouring instructions is below
// the clock's resolution) and converts the ticks to CLOCK_MONOTONIC nanoseconds with a
// linear segment that the writer thread fits to clock_gettime (host_clock_calibration.h).
// Until the first segment is published, and wherever the TSC cannot be trusted (not x86-64,
// no invariant-TSC bit, the kernel not using the TSC as its clocksource, PROF_CLOCK=
// monotonic), it is clock_gettime(CLOCK_MONOTONIC), so the trace always holds host-clock
// nanoseconds and the simulator's and the analyzer's CLOCK_MONOTONIC times line up.
//
// Converted at record time, not stored raw for the writer to convert: a record's time
// decides its window (drain_horizon.h, TraceWriter::WindowAt) and its order against step
// boundaries on the program's thread, and every consumer of a record (the writer, the
// CUPTI callbacks, the step controller, the tests) then deals in one unit. The conversion
// costs a multiply; a raw-tick design would move it, not remove it.
//
// The segments: f(t) = ns0 + (t - tsc0) * mult / 2^32. The writer publishes segment g+1 in
// slot (g+1) % kHostClockSlots, then the generation g+1 (release). A reader loads the
// generation (acquire), the slot, reads the TSC, and checks the generation again: if a newer
// segment was published meanwhile it tries again, so a reader stalled between its loads never
// applies an old segment to a new tick, and never sees a slot being rewritten (which needs
// kHostClockSlots - 1 newer generations). No state is ever half-published: fork() at any
// moment leaves the child a consistent clock, a signal handler may read it (loads and RDTSC
// only, async-signal-safe), and nobody ever waits for the writer.
//
// Monotonic: each new segment starts where the previous one is at its starting tick (its
// joint, value rounded up), with a slope that steers toward clock_gettime (at most 1000 ppm
// away from the measured rate), so f is continuous and increasing. The joint lies ahead of
// the publication (kJointLeadNs, host_clock_calibration.h), and a reader whose tick is before
// the newest segment's joint uses the previous segment (still in its slot), so readers at one
// tick use one line whichever generation they loaded. The writer commits a segment only
// while its joint is still half the lead ahead; a writer preempted between that check and its
// one store lets readers of the old segment pass the joint on the old line, and a later read
// on a new, shallower line is then lower by the delay times the slope change (measured: up
// to 26 us, a few times per 3000 joints, with TSan, a 1 ms refinement and six busy threads
// on two vCPUs). Hence floors:
// - within a thread, every read returns at least the thread's previous reading
//   (t_clock_floor: one compare in the thread's own cache line). Migrating threads pass
//   through the kernel, and the kernel uses the TSC as clocksource only if it is
//   synchronized across CPUs, so the floor only ever absorbs a late joint;
// - across threads, RDTSC is not ordered with memory accesses: a read made after taking a
//   lock may execute before the lock's load completes and so be below the previous holder's
//   reading (by up to ~1 us measured on a loaded 2-vCPU VM; Tracy accepts the same), and a
//   late joint adds its step. Fencing every read (LFENCE or RDTSCP) costs as much as
//   clock_gettime here, so only where an order must be exact (a step boundary against the
//   writer's drain horizon) MonotonicNsOrdered() fences the read and raises a process-wide
//   floor (a fetch-max, a handful of times per step); PROF_CLOCK=monotonic gives exact
//   order everywhere.
#ifndef PROF_AGENT_RECORD_CLOCK_H_
#define PROF_AGENT_RECORD_CLOCK_H_

#include <time.h>

#include <atomic>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace prof {

// clock_gettime(CLOCK_MONOTONIC): the reference the TSC is fitted to, and the fallback.
inline uint64_t SystemMonotonicNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

inline uint64_t RealtimeNs() {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

// One linear piece of the tick -> nanosecond mapping.
struct TscSegment {
  uint64_t tsc0 = 0;  // starting tick
  uint64_t ns0 = 0;   // CLOCK_MONOTONIC nanoseconds at tsc0
  uint64_t mult = 0;  // nanoseconds per tick, times 2^32
};

// f(tsc) for `segment`; ticks before tsc0 (a read reordered across the publication, or a
// CPU's TSC a few cycles behind) extrapolate backwards on the same line.
inline uint64_t TscToNs(uint64_t tsc, uint64_t tsc0, uint64_t ns0, uint64_t mult) {
  if (tsc >= tsc0) {
    return ns0 + static_cast<uint64_t>((static_cast<unsigned __int128>(tsc - tsc0) * mult) >> 32);
  }
  return ns0 - static_cast<uint64_t>((static_cast<unsigned __int128>(tsc0 - tsc) * mult) >> 32);
}

inline uint64_t TscToNs(const TscSegment& segment, uint64_t tsc) {
  return TscToNs(tsc, segment.tsc0, segment.ns0, segment.mult);
}

namespace internal {

constexpr uint64_t kHostClockSlots = 4;

// Written by the calibrating thread only (host_clock_calibration.cc); fields are atomics
// so a reader racing with a rewrite is defined behaviour (it then retries, see above).
struct HostClockSlot {
  std::atomic<uint64_t> tsc0{0};
  std::atomic<uint64_t> ns0{0};
  std::atomic<uint64_t> mult{0};
};
struct alignas(64) HostClock {
  std::atomic<uint64_t> generation{0};  // 0: no segment yet, use clock_gettime
  HostClockSlot slots[kHostClockSlots];
};
extern HostClock g_host_clock;

// The clock from the current segment, reading the TSC with `read_tsc`; false when there is
// no segment (or, after a few tries, the writer keeps publishing under our feet).
template <typename ReadTick>
inline bool TscNs(ReadTick read_tsc, uint64_t* ns) {
#if defined(__x86_64__)
  for (int attempt = 0; attempt < 4; ++attempt) {
    const uint64_t generation = g_host_clock.generation.load(std::memory_order_acquire);
    if (__builtin_expect(generation == 0, 0)) return false;
    const HostClockSlot& slot = g_host_clock.slots[generation % kHostClockSlots];
    // Acquire: the check below stays after these loads, and a value from a rewrite of the
    // slot (release stores, after the newer generations were published) makes the check
    // see a newer generation. Plain loads on x86-64; no fence (which TSan cannot model).
    uint64_t tsc0 = slot.tsc0.load(std::memory_order_acquire);
    uint64_t ns0 = slot.ns0.load(std::memory_order_acquire);
    uint64_t mult = slot.mult.load(std::memory_order_acquire);
    const uint64_t tsc = read_tsc();
    if (__builtin_expect(tsc < tsc0, 0) && generation > 1) {
      // Before the segment's joint the previous segment's line holds (see the top).
      const HostClockSlot& previous = g_host_clock.slots[(generation - 1) % kHostClockSlots];
      tsc0 = previous.tsc0.load(std::memory_order_acquire);
      ns0 = previous.ns0.load(std::memory_order_acquire);
      mult = previous.mult.load(std::memory_order_acquire);
    }
    if (__builtin_expect(g_host_clock.generation.load(std::memory_order_relaxed) != generation,
                         0)) {
      continue;
    }
    *ns = TscToNs(tsc, tsc0, ns0, mult);
    return true;
  }
#else
  (void)read_tsc;
  (void)ns;
#endif
  return false;
}

// The thread's latest reading: no later reading on the thread returns less (see the top).
// Plain loads and stores of the thread's own variable: async-signal-safe; a handler that
// interrupts a read may lower it again to the interrupted read's value, which is then still
// >= every value the thread returned before the handler. A fork child inherits its thread's.
extern thread_local uint64_t t_clock_floor __attribute__((tls_model("initial-exec")));
// The latest ordered reading of any thread (MonotonicNsOrdered).
extern std::atomic<uint64_t> g_ordered_floor;

inline uint64_t AboveThreadFloor(uint64_t ns) {
  if (__builtin_expect(ns < t_clock_floor, 0)) return t_clock_floor;
  t_clock_floor = ns;
  return ns;
}

}  // namespace internal

// The agent's clock (see the top): CLOCK_MONOTONIC nanoseconds, from the TSC once calibrated.
inline uint64_t MonotonicNs() {
  uint64_t ns;
#if defined(__x86_64__)
  if (__builtin_expect(!internal::TscNs([] { return __rdtsc(); }, &ns), 0))
    ns = SystemMonotonicNs();
#else
  ns = SystemMonotonicNs();
#endif
  return internal::AboveThreadFloor(ns);
}

// The same clock, its TSC read ordered against the surrounding instructions (LFENCE before:
// every earlier instruction has completed, so after a locked RMW its store is visible;
// LFENCE after: no later instruction starts before the read). For the drain horizon's
// producers (drain_horizon.h). clock_gettime orders its own read (the vDSO's LFENCE).
inline uint64_t MonotonicNsOrdered() {
  uint64_t ns;
#if defined(__x86_64__)
  const auto ordered = [] {
    _mm_lfence();
    const uint64_t tsc = __rdtsc();
    _mm_lfence();
    return tsc;
  };
  if (!internal::TscNs(ordered, &ns)) ns = SystemMonotonicNs();
#else
  ns = SystemMonotonicNs();
#endif
  // Exact across threads too: at least every ordered reading that precedes it in the
  // floor's modification order (a fetch-max; step boundaries only, so never contended).
  uint64_t floor = internal::g_ordered_floor.load(std::memory_order_relaxed);
  while (ns > floor && !internal::g_ordered_floor.compare_exchange_weak(
                           floor, ns, std::memory_order_acq_rel, std::memory_order_relaxed)) {
  }
  if (ns < floor) ns = floor;
  return internal::AboveThreadFloor(ns);
}

}  // namespace prof

#endif  // PROF_AGENT_RECORD_CLOCK_H_
