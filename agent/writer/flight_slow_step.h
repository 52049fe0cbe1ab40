// The flight recorder's slow-step trigger (PROF_FLIGHT_SLOW_FACTOR): a step slower than
// `factor` times the median of the steps before it (the last kBaselineSteps, once there
// are kMinimumSteps) is slow. The median rather than the mean: one earlier slow step (a
// checkpoint, an evaluation) must not raise the baseline. Pure: the writer thread feeds it
// the boundaries it reads from the ring (flight_ring.h FlightStepsAfter) and rate-limits
// the dumps (flight_monitor.h).
#ifndef PROF_AGENT_WRITER_FLIGHT_SLOW_STEP_H_
#define PROF_AGENT_WRITER_FLIGHT_SLOW_STEP_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "agent/record/flight_ring.h"

namespace prof {

class SlowStepDetector {
 public:
  static constexpr size_t kBaselineSteps = 16;
  static constexpr size_t kMinimumSteps = 8;  // the first steps (warm-up) are no baseline

  // factor 0: never slow.
  explicit SlowStepDetector(int64_t factor) : factor_(factor) {}

  // One finished step, in order. True when it is slow; `*detail` then names it ("step 20
  // took 1503.2 ms, 85.1x the median 17.7 ms of the 16 steps before it").
  bool Add(const FlightStepBoundary& step, std::string* detail);

 private:
  const int64_t factor_;
  std::deque<uint64_t> durations_;  // the last kBaselineSteps, oldest first
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_FLIGHT_SLOW_STEP_H_
