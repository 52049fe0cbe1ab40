// The TSC clock (clock.h, host_clock_calibration.h): the conversion and the calibration
// arithmetic against values worked out by hand, then the live clock: its fallback, its
// agreement with clock_gettime, monotonicity across threads while segments are published,
// and fork.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>
#include <vector>

#include "agent/record/clock.h"
#include "agent/record/host_clock_calibration.h"

namespace prof {
namespace {

constexpr uint64_t kOneNsPerTick = 1ull << 32;

TscSegment Segment(uint64_t tsc0, uint64_t ns0, uint64_t mult) {
  TscSegment segment;
  segment.tsc0 = tsc0;
  segment.ns0 = ns0;
  segment.mult = mult;
  return segment;
}

ClockPair Pair(uint64_t tsc, uint64_t ns, uint64_t uncertainty_ns = 0) {
  ClockPair pair;
  pair.tsc = tsc;
  pair.ns = ns;
  pair.uncertainty_ns = uncertainty_ns;
  return pair;
}

TEST_CASE("TscToNs: ns0 plus the ticks since tsc0 times the slope, before tsc0 too") {
  const TscSegment half = Segment(100, 5000, 1ull << 31);  // 0.5 ns per tick
  CHECK(TscToNs(half, 100) == 5000);
  CHECK(TscToNs(half, 300) == 5100);  // 200 ticks = 100 ns
  CHECK(TscToNs(half, 50) == 4975);   // 50 ticks before: 25 ns earlier
  // 4e12 ticks at 0.75 ns: the product (1.3e22) overflows 64 bits, the result does not.
  CHECK(TscToNs(Segment(0, 7, 3ull << 30), 4000000000000ull) == 3000000000007ull);
}

TEST_CASE("MeasuredMult: nanoseconds per tick times 2^32 between two pairs") {
  CHECK(MeasuredMult(Pair(0, 0), Pair(3000000000, 1000000000)) == 1431655765);  // 2^32 / 3
  CHECK(MeasuredMult(Pair(1000, 500), Pair(20001000, 10000500)) == (1ull << 31));
}

TEST_CASE("FirstSegment starts at the upper end of the bracket, at the baseline's rate") {
  const TscSegment first = FirstSegment(Pair(1000, 500, 10), Pair(20001000, 10000500, 15));
  CHECK(first.tsc0 == 20001000);
  CHECK(first.ns0 == 10000515);
  CHECK(first.mult == (1ull << 31));
}

TEST_CASE("NextSegment: continuous, and steers the offset away within the horizon") {
  const TscSegment current = Segment(0, 0, kOneNsPerTick);
  const uint64_t horizon = 100000000;  // 0.1 s
  SECTION("on track: the same line") {
    const TscSegment next = NextSegment(current, Pair(0, 0), Pair(1000000000, 1000000000), horizon);
    CHECK(next.tsc0 == 1000000000);
    CHECK(next.ns0 == 1000000000);
    CHECK(next.mult == kOneNsPerTick);
  }
  SECTION("1000 ns ahead: slower, meeting the measured line one horizon later") {
    const ClockPair now = Pair(1000000000, 1000000000 - 1000);
    const TscSegment next = NextSegment(current, Pair(0, 0), now, horizon);
    CHECK(next.ns0 == 1000000000);  // where `current` is at now.tsc: no jump
    // Measured rate (1e9 - 1000) / 1e9 ns per tick: 4294963001 / 2^32; one horizon is
    // 100000100 ticks at it; removing 1000 ns over them takes 42949 / 2^32 ns per tick.
    CHECK(next.mult == 4294963001ull - 42949);
    CHECK(TscToNs(next, now.tsc + 100000100) == 1099999000);  // now.ns + horizon
  }
  SECTION("1000 ns behind: faster") {
    const ClockPair now = Pair(1000000000, 1000000000 + 1000);
    const TscSegment next = NextSegment(current, Pair(0, 0), now, horizon);
    CHECK(next.ns0 == 1000000000);
    CHECK(next.mult > MeasuredMult(Pair(0, 0), now));
    const uint64_t at_horizon = TscToNs(next, now.tsc + 99999900);  // 1e8 ns at its rate
    CHECK(at_horizon >= 1100001000 - 2);
    CHECK(at_horizon <= 1100001000 + 2);
  }
  SECTION("a whole second ahead: the slope moves by 1000 ppm at most") {
    const TscSegment next = NextSegment(current, Pair(0, 0), Pair(2000000000, 1000000000), horizon);
    CHECK(next.ns0 == 2000000000);
    // Rate 0.5 ns per tick (2^31), less a thousandth of it.
    CHECK(next.mult == (1ull << 31) - (1ull << 31) / 1000);
  }
}

TEST_CASE("HostClockCalibrator: baseline, first segment after first_after, then every period") {
  HostClockCalibrator calibrator(20000000, 200000000);
  TscSegment segment;
  CHECK_FALSE(calibrator.Update(Pair(1000, 1000, 5), nullptr, &segment));  // the baseline
  CHECK(calibrator.next_due_ns() == 20001000);
  CHECK_FALSE(calibrator.Update(Pair(5001000, 5001000, 5), nullptr, &segment));
  REQUIRE(calibrator.Update(Pair(20001000, 20001000, 5), nullptr, &segment));
  CHECK(segment.tsc0 == 20001000);
  CHECK(segment.ns0 == 20001005);
  CHECK(segment.mult == kOneNsPerTick);
  const TscSegment first = segment;
  CHECK_FALSE(calibrator.Update(Pair(100001000, 100001000, 5), &first, &segment));
  REQUIRE(calibrator.Update(Pair(220001000, 220001000, 5), &first, &segment));
  CHECK(segment.tsc0 == 220001000);
  CHECK(segment.ns0 == 220001005);      // continuous: the first segment's 5 ns lead...
  CHECK(segment.mult < kOneNsPerTick);  // ...is being taken back
  CHECK(calibrator.next_due_ns() == 420001000);
}

TEST_CASE("HostClockCalibrator started afresh (a forked child) continues the published line") {
  HostClockCalibrator calibrator(20000000, 200000000);
  const TscSegment inherited = Segment(0, 0, kOneNsPerTick);  // 1 ns per tick since tick 0
  TscSegment segment;
  // Its new baseline at tick 5e8: the inherited segment stays until one is due...
  CHECK_FALSE(calibrator.Update(Pair(500000000, 500000000), &inherited, &segment));
  CHECK_FALSE(calibrator.Update(Pair(510000000, 510000000), &inherited, &segment));
  // ...then the next starts where the inherited one is, not at a fresh first segment's
  // bracket end (which would step 900 ns ahead here).
  REQUIRE(calibrator.Update(Pair(520000000, 520000000, 900), &inherited, &segment));
  CHECK(segment.tsc0 == 520000000);
  CHECK(segment.ns0 == 520000000);
  CHECK(segment.mult == kOneNsPerTick);
}

TEST_CASE("HostClockCalibrator: a wide bracket is never used; the first fit waits for 2 ppm") {
  HostClockCalibrator calibrator(20000000, 200000000);
  TscSegment segment;
  // A preempted bracket (2 us wide) is no baseline: the next pair is.
  CHECK_FALSE(calibrator.Update(Pair(1000, 1000, 2000), nullptr, &segment));
  CHECK(calibrator.next_due_ns() == 0);
  CHECK_FALSE(calibrator.Update(Pair(2000, 2000, 20), nullptr, &segment));
  CHECK(calibrator.next_due_ns() == 20002000);
  // 20 + 30 ns of uncertainty need 50 ns * 500000 = 25 ms between the pairs, not 20.
  CHECK_FALSE(calibrator.Update(Pair(20002000, 20002000, 30), nullptr, &segment));
  CHECK_FALSE(calibrator.Update(Pair(25001999, 25001999, 30), nullptr, &segment));
  REQUIRE(calibrator.Update(Pair(25002000, 25002000, 30), nullptr, &segment));
  CHECK(segment.ns0 == 25002030);
  // A wide bracket when a refinement is due: skipped, the schedule unchanged.
  CHECK_FALSE(calibrator.Update(Pair(225002000, 225002000, 1001), &segment, &segment));
  CHECK(calibrator.next_due_ns() == 225002000);
}

TEST_CASE("StartAt: the line's value at the new starting tick, with the new slope") {
  const TscSegment line = Segment(100, 5000, 1ull << 31);  // 0.5 ns per tick
  const TscSegment started = StartAt(line, 300, kOneNsPerTick);
  CHECK(started.tsc0 == 300);
  CHECK(started.ns0 == 5100);
  CHECK(started.mult == kOneNsPerTick);
  CHECK(TscToNs(started, 400) == 5200);
  // At tick 301 the line is at 5100.5: TscToNs gives 5100, the new segment starts at 5101.
  CHECK(TscToNs(line, 301) == 5100);
  CHECK(StartAt(line, 301, kOneNsPerTick).ns0 == 5101);
}

// A reader of segment g+1 whose tick is before g+1's (future) joint gets segment g's value,
// exactly: the writer may publish before the joint, and a reader that used segment g at that
// tick must not see a different line (a steeper new slope extrapolated back is lower).
TEST_CASE("a tick before the newest segment's joint reads the previous segment's line") {
  ResetHostClockForTest(true, 1000000, 1000000);
  const TscSegment first = Segment(1000, 1000000, kOneNsPerTick);
  PublishSegmentForTest(first);
  const TscSegment steeper = StartAt(first, 5000, 2 * kOneNsPerTick);  // joint at tick 5000
  PublishSegmentForTest(steeper);
  uint64_t ns = 0;
  REQUIRE(internal::TscNs([] { return uint64_t{4000}; }, &ns));
  CHECK(ns == 1003000);  // first's line (steeper's, extrapolated back, would say 1002000)
  REQUIRE(internal::TscNs([] { return uint64_t{5000}; }, &ns));
  CHECK(ns == 1004000);
  REQUIRE(internal::TscNs([] { return uint64_t{6000}; }, &ns));
  CHECK(ns == 1006000);  // steeper's slope after the joint
  ResetHostClockForTest(true, 1000000, 1000000);
}

// The writer publishes a segment only while its joint is still at least half the lead ahead
// of the TSC: a writer preempted between choosing the joint and publishing would otherwise
// let readers of the old segment pass the joint on the old line (a step back when the new
// slope is lower).
TEST_CASE("PublishAhead: a joint not far enough ahead is not published") {
  if (!CpuHasInvariantTsc()) return;
  ResetHostClockForTest(true, 1000000, 1000000);
  const TscSegment first = Segment(1000, 1000000, kOneNsPerTick);
  PublishSegmentForTest(first);
  const uint64_t lead_ticks = 1000000;
  const uint64_t now = __rdtsc();
  CHECK_FALSE(PublishAhead(StartAt(first, now, kOneNsPerTick), lead_ticks));  // in the past
  CHECK(HostClockGenerationForTest() == 1);
  CHECK_FALSE(PublishAhead(StartAt(first, now + lead_ticks / 4, kOneNsPerTick), lead_ticks));
  CHECK(HostClockGenerationForTest() == 1);
  CHECK(PublishAhead(StartAt(first, now + 100 * lead_ticks, kOneNsPerTick), lead_ticks));
  CHECK(HostClockGenerationForTest() == 2);
  ResetHostClockForTest(true, 1000000, 1000000);
}

// Runs RefineHostClock as the writer would until the TSC clock is in use (or `limit_ns`).
bool CalibrateLive(uint64_t limit_ns) {
  const uint64_t until = SystemMonotonicNs() + limit_ns;
  while (!HostClockUsesTsc() && SystemMonotonicNs() < until) {
    RefineHostClock();
    usleep(200);
  }
  return HostClockUsesTsc();
}

// Whether this machine lets the agent use its TSC (else those tests have nothing to test).
bool TscUsableHere() {
  ResetHostClockForTest(true, 1000000, 1000000);
  return CalibrateLive(200000000);
}

TEST_CASE("PROF_CLOCK=monotonic: never calibrated, clock_gettime's values") {
  ResetHostClockForTest(false, 1000000, 1000000);
  CHECK_FALSE(CalibrateLive(20000000));
  for (int i = 0; i < 1000; ++i) {
    const uint64_t before = SystemMonotonicNs();
    const uint64_t now = MonotonicNs();
    const uint64_t ordered = MonotonicNsOrdered();
    const uint64_t after = SystemMonotonicNs();
    CHECK(before <= now);
    CHECK(now <= ordered);
    CHECK(ordered <= after);
  }
}

TEST_CASE("the TSC clock agrees with CLOCK_MONOTONIC") {
  if (!TscUsableHere()) {
    WARN("no usable invariant TSC here: only the fallback is tested");
    return;
  }
  ResetHostClockForTest(true, 5000000, 5000000);
  REQUIRE(CalibrateLive(1000000000));
  // Within 20 us of a clock_gettime bracket (the fit is good to ~1 us; a preemption
  // between the reads only widens the bracket), for 100 ms of refinements.
  const uint64_t slack = 20000;
  int outside = 0;
  const uint64_t until = SystemMonotonicNs() + 100000000;
  while (SystemMonotonicNs() < until) {
    RefineHostClock();
    const uint64_t before = SystemMonotonicNs();
    const uint64_t now = MonotonicNs();
    const uint64_t after = SystemMonotonicNs();
    if (now + slack < before || now > after + slack) ++outside;
  }
  CHECK(outside == 0);
}

struct Steps {
  int within_thread = 0;   // a thread's reading below its own previous one
  int across_threads = 0;  // below the previous mutex holder's reading by more than `slack`
};

// Threads pass a token through a mutex, reading the clock with `read` before and while
// holding it, and one more thread reads back to back (a step back at a new segment would
// show there first), while another thread publishes a segment every millisecond. Within a
// thread every reading must be >= the previous; across threads, a holder's reading may be
// below the previous holder's by `slack` (RDTSC is not ordered with memory: clock.h).
template <typename Read>
Steps BackwardSteps(bool use_tsc, Read read, uint64_t slack) {
  ResetHostClockForTest(use_tsc, 1000000, 1000000);
  if (use_tsc) CalibrateLive(1000000000);
  std::atomic<bool> stop{false};
  std::thread refiner([&] {
    while (!stop.load()) {
      RefineHostClock();
      usleep(100);
    }
  });
  std::mutex mutex;
  uint64_t last = 0;
  std::atomic<int> within{0}, across{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      uint64_t mine = 0;
      for (int i = 0; i < 50000; ++i) {
        const uint64_t free_read = read();
        if (free_read < mine) within.fetch_add(1);
        std::lock_guard<std::mutex> lock(mutex);
        const uint64_t now = read();
        if (now < free_read) within.fetch_add(1);
        if (now + slack < last) across.fetch_add(1);
        last = mine = now;
      }
    });
  }
  threads.emplace_back([&] {
    uint64_t previous = read();
    for (int i = 0; i < 2000000; ++i) {
      const uint64_t now = read();
      if (now < previous) within.fetch_add(1);
      previous = now;
    }
  });
  for (auto& thread : threads) thread.join();
  stop.store(true);
  refiner.join();
  return Steps{within.load(), across.load()};
}

TEST_CASE("monotonic within threads, and across them as far as the reads are ordered") {
  const auto plain = [] { return MonotonicNs(); };
  const auto ordered = [] { return MonotonicNsOrdered(); };
  SECTION("clock_gettime: exact") {
    const Steps steps = BackwardSteps(false, plain, 0);
    CHECK(steps.within_thread == 0);
    CHECK(steps.across_threads == 0);
  }
  if (!TscUsableHere()) return;
  SECTION("TSC, ordered reads (step boundaries): exact") {
    const Steps steps = BackwardSteps(true, ordered, 0);
    CHECK(steps.within_thread == 0);
    CHECK(steps.across_threads == 0);
  }
  SECTION("TSC, plain reads (hooks): exact within a thread, within 10 us across") {
    // Measured on a 2-vCPU VM: up to ~1 us, from RDTSC executing ahead of the lock's load.
    const Steps steps = BackwardSteps(true, plain, 10000);
    CHECK(steps.within_thread == 0);
    CHECK(steps.across_threads == 0);
  }
}

TEST_CASE("fork: the child reads a consistent clock and can refine it") {
  if (!TscUsableHere()) return;
  ResetHostClockForTest(true, 1000000, 1000000);
  REQUIRE(CalibrateLive(1000000000));
  std::atomic<bool> stop{false};
  std::thread refiner([&] {  // refining while the process forks
    while (!stop.load()) RefineHostClock();
  });
  const pid_t child = fork();
  if (child == 0) {
    ResetHostClockAfterFork();
    uint64_t previous = MonotonicNs();
    int bad = 0;
    for (int i = 0; i < 20000; ++i) {
      if (i % 100 == 0) RefineHostClock();  // the guard is free again in the child
      const uint64_t before = SystemMonotonicNs();
      const uint64_t now = MonotonicNs();
      if (now < previous || now + 20000 < before) ++bad;
      previous = now;
    }
    _exit(bad == 0 && HostClockUsesTsc() ? 0 : 1);
  }
  stop.store(true);
  refiner.join();
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace prof
