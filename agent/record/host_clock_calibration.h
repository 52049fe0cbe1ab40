// Fits the TSC to CLOCK_MONOTONIC for MonotonicNs() (clock.h), on the writer thread.
//
// Why the writer thread: calibrating needs two (tick, clock_gettime) pairs some time apart,
// and the hot path must never wait or read a file; the writer wakes every 4-10 ms anyway.
// Its first pass takes a baseline pair, a pass at least kFirstAfterNs later (and late
// enough for the pairs' uncertainty, see kSpanPerUncertainty) publishes the first segment (until
// then MonotonicNs() is clock_gettime), and every kRefineEveryNs it publishes a new segment that
// starts where the current one is and whose slope is the rate measured since the baseline,
// corrected so that the remaining offset against clock_gettime is gone one period later (NTP slews
// CLOCK_MONOTONIC; the TSC does not). The first segment starts at the upper end of its
// clock_gettime bracket, so no read after the switch is below one made before it.
//
// Whether the TSC is used is decided at the first pass: PROF_CLOCK=tsc (the default) and
// the CPU's invariant-TSC bit (CPUID 0x80000007 EDX[8]: constant rate, runs in deep
// C-states), and the kernel's clocksource is "tsc" where /sys says (the kernel checked the
// TSCs are synchronized across CPUs and did not mark it unstable). Else clock_gettime.
//
// Thread safety: RefineHostClock from any thread, one at a time (a second caller at the
// same moment returns without work: tests run several writers); the rest of the API is for
// start-up, the fork child handler and tests. Fork: the child inherits a consistent clock
// (clock.h); ResetHostClockAfterFork frees the refinement guard in case the parent's writer
// held it at fork time, and restarts the calibrator (whose fields the parent's writer may
// have been writing): the child takes a new baseline and keeps the inherited segment
// until its next one, which continues that segment's line.
#ifndef PROF_AGENT_RECORD_HOST_CLOCK_CALIBRATION_H_
#define PROF_AGENT_RECORD_HOST_CLOCK_CALIBRATION_H_

#include <cstdint>

#include "agent/record/clock.h"

namespace prof {

constexpr uint64_t kFirstAfterNs = 20000000;    // 20 ms baseline: rate within ~2 ppm
constexpr uint64_t kRefineEveryNs = 200000000;  // then a segment every 200 ms
constexpr uint64_t kMaxSlewPerMille = 1;        // a correction moves the slope <= 1000 ppm
// A new segment's joint (its starting tick) lies this far ahead of the tick read when it is
// computed (clock.h: readers before the joint keep the previous line), and it is published
// only while still half this far ahead. 100 us: far above the few hundred cycles a reader's
// RDTSC can run out of order, far below the 1 ms a test refines at.
constexpr uint64_t kJointLeadNs = 100000;
// A clock_gettime bracket wider than this was preempted or interrupted: the pair is not used
// (a loaded machine would otherwise hand the fit a pair off by up to a time slice).
constexpr uint64_t kMaxPairUncertaintyNs = 1000;
// The first segment waits until the two pairs' uncertainties are this small a fraction of
// the time between them (1 / 500000: the rate within 2 ppm).
constexpr uint64_t kSpanPerUncertainty = 500000;

// A TSC reading and the CLOCK_MONOTONIC time at it: ns is the middle of a clock_gettime
// bracket around the tick, ns + uncertainty_ns its upper end.
struct ClockPair {
  uint64_t tsc = 0;
  uint64_t ns = 0;
  uint64_t uncertainty_ns = 0;
};

// Nanoseconds per tick times 2^32 between two pairs (to.tsc > from.tsc).
uint64_t MeasuredMult(const ClockPair& from, const ClockPair& to);

// The first segment, from the baseline's rate, starting at `now`'s upper bound.
TscSegment FirstSegment(const ClockPair& baseline, const ClockPair& now);

// The segment after `current` at `now`: continuous with it at now.tsc; its slope is the
// rate since `baseline` minus what removes `current`'s offset from now.ns within
// `horizon_ns` (clamped to kMaxSlewPerMille of the rate).
TscSegment NextSegment(const TscSegment& current, const ClockPair& baseline, const ClockPair& now,
                       uint64_t horizon_ns);

// `line` continued from `tsc` (its value there rounded up) with slope `mult`: where a
// computed segment really starts. The writer re-anchors each segment at its joint,
// kJointLeadNs ahead of a tick read just before publishing it (clock.h): the new slope only
// applies from there, and every reader before it stays on the old line.
TscSegment StartAt(const TscSegment& line, uint64_t tsc, uint64_t mult);

// kJointLeadNs in ticks at slope `mult`.
uint64_t LeadTicks(uint64_t mult);

// Publishes `segment` if its joint is still at least lead_ticks / 2 ahead of the TSC (read
// ordered); false, nothing published, if the writer was too slow (the next pass retries).
// Calibrating thread only.
bool PublishAhead(const TscSegment& segment, uint64_t lead_ticks);

// The schedule above, on pairs given to it (no clock of its own, so tests drive it). It
// keeps no copy of the segment in use: the caller passes the published one, so a calibrator
// started afresh (a forked child's) continues that line instead of starting a new one.
class HostClockCalibrator {
 public:
  constexpr HostClockCalibrator(uint64_t first_after_ns, uint64_t refine_every_ns)
      : first_after_ns_(first_after_ns), refine_every_ns_(refine_every_ns) {}

  // True with `*segment` set when a segment is due at `now`; `published` is the segment
  // MonotonicNs() uses now (null: none yet, the first one is due).
  bool Update(const ClockPair& now, const TscSegment* published, TscSegment* segment);
  // When the next call can publish (CLOCK_MONOTONIC ns; 0: at once).
  uint64_t next_due_ns() const { return next_due_ns_; }
  // The segment Update returned was not published: the next call may publish at once.
  void RetryNow() { next_due_ns_ = 0; }

 private:
  uint64_t first_after_ns_;
  uint64_t refine_every_ns_;
  bool have_baseline_ = false;
  ClockPair baseline_;
  uint64_t next_due_ns_ = 0;
};

// Start-up, from PROF_CLOCK: false keeps clock_gettime for good.
void ConfigureHostClock(bool allow_tsc);

// The writer thread, once per pass (cheap when nothing is due: one clock_gettime).
void RefineHostClock();

// Whether MonotonicNs() reads the TSC now.
bool HostClockUsesTsc();

// The CPU's invariant-TSC bit (false off x86-64).
bool CpuHasInvariantTsc();

// From the fork child handler: async-signal-safe (one atomic store).
void ResetHostClockAfterFork();

// Tests: publishes `segment` as is; the current generation (0: none).
void PublishSegmentForTest(const TscSegment& segment);
uint64_t HostClockGenerationForTest();

// Tests: back to "not calibrated" with the given schedule, the floors (clock.h) at 0 (the
// calling thread's; no reader may run meanwhile).
void ResetHostClockForTest(bool allow_tsc, uint64_t first_after_ns, uint64_t refine_every_ns);

}  // namespace prof

#endif  // PROF_AGENT_RECORD_HOST_CLOCK_CALIBRATION_H_
