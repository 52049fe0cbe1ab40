#include "agent/writer/flight_slow_step.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

namespace prof {

bool SlowStepDetector::Add(const FlightStepBoundary& step, std::string* detail) {
  const uint64_t duration = step.end_ns > step.start_ns ? step.end_ns - step.start_ns : 0;
  bool slow = false;
  if (factor_ > 0 && durations_.size() >= kMinimumSteps) {
    std::vector<uint64_t> sorted(durations_.begin(), durations_.end());
    // Upper median (index n / 2), as analyzer/job/quantile.h's Median.
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const uint64_t median = sorted[sorted.size() / 2];
    slow = duration > static_cast<uint64_t>(factor_) * median;
    if (slow) {
      char text[200];
      std::snprintf(
          text, sizeof(text),
          "step %" PRId64 " took %.1f ms, %.1fx the median %.1f ms of the %zu steps before it",
          step.number, duration / 1e6, median > 0 ? static_cast<double>(duration) / median : 0.0,
          median / 1e6, sorted.size());
      *detail = text;
    }
  }
  durations_.push_back(duration);
  if (durations_.size() > kBaselineSteps) durations_.pop_front();
  return slow;
}

}  // namespace prof
