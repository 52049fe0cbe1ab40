#include "analyzer/model/clock_alignment.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace prof::analyzer {
namespace {

// host - cupti as a signed number (the clocks may be far apart in either direction).
int64_t Offset(uint64_t host_ns, uint64_t cupti_ns) {
  return static_cast<int64_t>(host_ns - cupti_ns);
}

uint64_t Shift(uint64_t cupti_ns, int64_t offset) {
  return static_cast<uint64_t>(static_cast<int64_t>(cupti_ns) + offset);
}

}  // namespace

CuptiToHostClock::CuptiToHostClock(const std::vector<trace::ClockAnchor>& anchors) {
  for (const trace::ClockAnchor& anchor : anchors) {
    if (anchor.cupti_ns() == 0) continue;
    points_.push_back({anchor.cupti_ns(), anchor.host_monotonic_ns(), anchor.uncertainty_ns()});
  }
  std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) {
    return a.cupti_ns != b.cupti_ns ? a.cupti_ns < b.cupti_ns : a.uncertainty_ns < b.uncertainty_ns;
  });
  // Of several readings at one CUPTI time keep the most certain (sorted first).
  points_.erase(
      std::unique(points_.begin(), points_.end(),
                  [](const Point& a, const Point& b) { return a.cupti_ns == b.cupti_ns; }),
      points_.end());
  if (points_.empty()) return;
  first_cupti_ns_ = points_.front().cupti_ns;
  last_cupti_ns_ = points_.back().cupti_ns;
  first_offset_ = points_.front().host_ns - points_.front().cupti_ns;
  last_offset_ = points_.back().host_ns - points_.back().cupti_ns;
}

uint64_t CuptiToHostClock::Interpolate(uint64_t cupti_ns) const {
  auto upper = std::upper_bound(points_.begin(), points_.end(), cupti_ns,
                                [](uint64_t value, const Point& p) { return value < p.cupti_ns; });
  const Point& right = *upper;
  const Point& left = *(upper - 1);
  // Interpolate the offset, not the time: offsets are small, so doubles stay exact enough.
  const double fraction = static_cast<double>(cupti_ns - left.cupti_ns) /
                          static_cast<double>(right.cupti_ns - left.cupti_ns);
  const double left_offset = static_cast<double>(Offset(left.host_ns, left.cupti_ns));
  const double right_offset = static_cast<double>(Offset(right.host_ns, right.cupti_ns));
  const double offset = left_offset + fraction * (right_offset - left_offset);
  return Shift(cupti_ns, static_cast<int64_t>(offset >= 0 ? offset + 0.5 : offset - 0.5));
}

std::string CuptiToHostClock::Describe() const {
  if (points_.empty()) return "no CUPTI clock anchor: CUPTI and host clocks assumed equal";
  const int64_t first = Offset(points_.front().host_ns, points_.front().cupti_ns);
  const int64_t last = Offset(points_.back().host_ns, points_.back().cupti_ns);
  uint64_t worst = 0;
  for (const Point& p : points_) worst = std::max(worst, p.uncertainty_ns);
  return absl::StrFormat(
      "%d CUPTI anchor(s), host-cupti offset %d ns (drift %d ns), uncertainty <= %d ns",
      points_.size(), first, last - first, worst);
}

}  // namespace prof::analyzer
