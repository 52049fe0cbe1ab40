// The slow-step trigger's rule: factor x the median of up to 16 earlier steps, after 8.
#include "agent/writer/flight_slow_step.h"

#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

constexpr uint64_t kMs = 1000000;

FlightStepBoundary StepOf(int64_t number, uint64_t duration_ns) {
  const uint64_t start = 1000 * kMs * static_cast<uint64_t>(number);
  return {number, start, start + duration_ns};
}

TEST_CASE("slow step: factor 3 over the median of the steps before it") {
  SlowStepDetector detector(3);
  std::string detail;
  // Seven 10 ms steps: too few for a baseline, even a 1 s step is not judged.
  for (int64_t n = 0; n < 7; ++n)
    CHECK_FALSE(detector.Add(StepOf(n, n == 3 ? 1000 * kMs : 10 * kMs), &detail));
  CHECK_FALSE(detector.Add(StepOf(7, 10 * kMs), &detail));
  // Baseline of 8 steps: seven of 10 ms and one of 1 s; the median is 10 ms.
  CHECK_FALSE(detector.Add(StepOf(8, 30 * kMs), &detail));  // exactly 3x: not slower
  CHECK(detail.empty());
  CHECK(detector.Add(StepOf(9, 31 * kMs), &detail));
  CHECK(detail == "step 9 took 31.0 ms, 3.1x the median 10.0 ms of the 9 steps before it");
}

TEST_CASE("slow step: the baseline is the last 16 steps, so a lasting change becomes normal") {
  SlowStepDetector detector(2);
  std::string detail;
  int64_t n = 0;
  for (; n < 16; ++n) detector.Add(StepOf(n, 10 * kMs), &detail);
  CHECK(detector.Add(StepOf(n++, 50 * kMs), &detail));  // 5x the 10 ms median
  // From now on every step takes 50 ms: slow until they are the median (9 of 16).
  int slow = 0;
  for (int i = 0; i < 16; ++i) slow += detector.Add(StepOf(n++, 50 * kMs), &detail) ? 1 : 0;
  CHECK(slow == 7);  // while at most 7 of the 16 steps before it took 50 ms
}

TEST_CASE("slow step: factor 0 is off") {
  SlowStepDetector detector(0);
  std::string detail;
  for (int64_t n = 0; n < 20; ++n)
    CHECK_FALSE(detector.Add(StepOf(n, (n == 19 ? 5000 : 1) * kMs), &detail));
}

}  // namespace
}  // namespace prof
