#include "analyzer/summary/window_carry.h"

#include <algorithm>
#include <set>

namespace prof::analyzer {
namespace {

// True when [start, end) overlaps the window; a zero-length event counts at its instant.
bool Overlaps(const IntervalList& window, uint64_t start, uint64_t end) {
  auto it = std::upper_bound(window.begin(), window.end(), start,
                             [](uint64_t t, const Interval& i) { return t < i.end; });
  return it != window.end() && (it->start < end || (start == end && it->start <= start));
}

}  // namespace

ClippedUnion WindowCarry::Union(const AnalysisContext& window, UnionKind kind, std::vector<CarriedInterval> own,
                                int device) {
  const size_t slot = static_cast<size_t>(kind);
  for (const CarriedInterval& carried : in_[slot]) {
    if (device < 0 || carried.device == static_cast<uint32_t>(device)) own.push_back(carried);
  }
  // Without steps the window is the span of the events: nothing runs past it.
  const uint64_t window_end = window.has_steps && !window.window.empty() ? window.window.back().end : 0;
  ClippedUnion result;
  IntervalList intervals;
  intervals.reserve(own.size());
  for (const CarriedInterval& item : own) {
    const bool inside = Overlaps(window.window, item.start, item.end);
    result.calls += inside && !item.counted;
    if (window_end > 0 && item.end > window_end) {
      out_[slot].push_back({std::max(item.start, window_end), item.end, item.device, item.counted || inside});
    }
    intervals.push_back({item.start, item.end});
  }
  result.intervals = IntersectIntervals(MergeIntervals(std::move(intervals)), window.window);
  return result;
}

std::vector<uint32_t> WindowCarry::CarriedDevices() const {
  std::set<uint32_t> devices;
  for (const CarriedInterval& carried : in_[static_cast<size_t>(UnionKind::kKernelsByDevice)]) {
    devices.insert(carried.device);
  }
  return {devices.begin(), devices.end()};
}

void WindowCarry::NextWindow() {
  in_ = std::move(out_);
  out_ = Lists();
}

}  // namespace prof::analyzer
