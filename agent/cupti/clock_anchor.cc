#include "agent/cupti/clock_anchor.h"

#include "agent/record/clock.h"

namespace prof {
namespace {

constexpr int kTries = 5;

}  // namespace

ClockAnchorValue MeasureCuptiAnchor(GetTimestampFunction get_timestamp, const char* reason) {
  ClockAnchorValue best;
  best.reason = reason;
  uint64_t best_width = UINT64_MAX;
  for (int attempt = 0; attempt < kTries && get_timestamp; ++attempt) {
    uint64_t cupti_ns = 0;
    const uint64_t before = MonotonicNs();
    const CUptiResult result = get_timestamp(&cupti_ns);
    const uint64_t realtime = RealtimeNs();
    const uint64_t after = MonotonicNs();
    if (result != CUPTI_SUCCESS || cupti_ns == 0) continue;
    if (after - before >= best_width) continue;
    best_width = after - before;
    best.host_monotonic_ns = before + best_width / 2;
    // Inside the same bracket, so within the stated uncertainty of the middle.
    best.host_realtime_ns = realtime;
    best.cupti_ns = cupti_ns;
    best.uncertainty_ns = best_width / 2;
  }
  if (best_width == UINT64_MAX) {
    // No CUPTI reading: still a valid host pair.
    const uint64_t before = MonotonicNs();
    best.host_realtime_ns = RealtimeNs();
    const uint64_t after = MonotonicNs();
    best.host_monotonic_ns = before + (after - before) / 2;
    best.uncertainty_ns = (after - before) / 2;
  }
  return best;
}

int64_t CuptiMinusHostNs(const ClockAnchorValue& anchor) {
  if (anchor.cupti_ns == 0) return 0;
  return static_cast<int64_t>(anchor.cupti_ns) - static_cast<int64_t>(anchor.host_monotonic_ns);
}

}  // namespace prof
