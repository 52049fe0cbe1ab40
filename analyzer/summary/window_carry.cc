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

ClippedUnion WindowCarry::Union(const AnalysisContext& window, UnionKind kind, IntervalList own,
                                int device) {
  const size_t slot = static_cast<size_t>(kind);
  // Without steps the window is the span of the events: nothing runs past it.
  const uint64_t window_end =
      window.has_steps && !window.window.empty() ? window.window.back().end : 0;
  const uint32_t own_device = device < 0 ? 0 : static_cast<uint32_t>(device);
  ClippedUnion result;
  auto add = [&](uint64_t start, uint64_t end, uint32_t on_device, bool counted) {
    const bool inside = Overlaps(window.window, start, end);
    result.calls += inside && !counted;
    if (window_end > 0 && end > window_end) {
      out_[slot].push_back({std::max(start, window_end), end, on_device, counted || inside});
    }
  };
  for (const Interval& interval : own) add(interval.start, interval.end, own_device, false);
  // Carried work starts where the previous window ended, before this window's own: in
  // front, the list stays as sorted as it was (appended, it would make std::sort fall
  // back to heapsort on millions of nearly sorted intervals).
  IntervalList carried_in;
  for (const CarriedInterval& carried : in_[slot]) {
    if (device >= 0 && carried.device != own_device) continue;
    add(carried.start, carried.end, carried.device, carried.counted);
    carried_in.push_back({carried.start, carried.end});
  }
  std::sort(carried_in.begin(), carried_in.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  own.insert(own.begin(), carried_in.begin(), carried_in.end());
  result.intervals = ClipIntervals(MergeIntervals(std::move(own)), window.window);
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
