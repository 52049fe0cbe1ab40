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

// Overlaps for events taken in start order: the window interval a search would find only
// moves forward, so the cursor steps to it instead of a binary search per event (the
// union's own events number millions). Holds the window's storage, not the vector, so
// the walk keeps it in registers.
class OverlapCursor {
 public:
  explicit OverlapCursor(const IntervalList& window)
      : pieces_(window.data()), count_(window.size()) {}

  // `start` is at least the previous call's.
  bool Overlaps(uint64_t start, uint64_t end) {
    while (next_ < count_ && pieces_[next_].end <= start) ++next_;
    if (next_ == count_) return false;
    const Interval& at = pieces_[next_];
    return at.start < end || (start == end && at.start <= start);
  }

 private:
  const Interval* pieces_;
  size_t count_;
  size_t next_ = 0;
};

// Hands on the part of `interval` past the window's end (0: nothing runs past it).
void HandOn(uint64_t window_end, CarriedInterval interval, std::vector<CarriedInterval>* out) {
  if (window_end == 0 || interval.end <= window_end) return;
  interval.start = std::max(interval.start, window_end);
  out->push_back(interval);
}

// The events (sorted by start) that overlap the window, counted in one forward walk;
// hands on what runs past its end.
uint64_t CountOwn(const IntervalList& own, const IntervalList& window, uint64_t window_end,
                  uint32_t device, std::vector<CarriedInterval>* out) {
  OverlapCursor cursor(window);
  uint64_t calls = 0;
  for (const Interval& interval : own) {
    const bool inside = cursor.Overlaps(interval.start, interval.end);
    calls += inside;
    if (interval.end > window_end)
      HandOn(window_end, {interval.start, interval.end, device, inside}, out);
  }
  return calls;
}

// Sorts by start unless already sorted (device records of a stream come in start order):
// the overlap cursor and the merge need no order of ends.
void SortByStart(IntervalList* intervals) {
  auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  if (!std::is_sorted(intervals->begin(), intervals->end(), by_start)) {
    std::sort(intervals->begin(), intervals->end(), by_start);
  }
}

// Puts the carried intervals in front of `own` (both sorted by start), keeping the list
// sorted: the two runs merged as runs, so the union's merge needs no sort of the whole.
void JoinCarried(IntervalList carried, IntervalList* own) {
  if (carried.empty()) return;
  SortByStart(&carried);
  own->insert(own->begin(), carried.begin(), carried.end());
  std::inplace_merge(own->begin(), own->begin() + carried.size(), own->end(),
                     [](const Interval& a, const Interval& b) { return a.start < b.start; });
}

}  // namespace

ClippedUnion WindowCarry::Union(const AnalysisContext& window, UnionKind kind, IntervalList own,
                                int device) {
  std::vector<CarriedInterval>& out = out_[static_cast<size_t>(kind)];
  // Without steps the window is the span of the events: nothing runs past it.
  const uint64_t window_end =
      window.has_steps && !window.window.empty() ? window.window.back().end : 0;
  const uint32_t own_device = device < 0 ? 0 : static_cast<uint32_t>(device);
  ClippedUnion result;
  SortByStart(&own);
  result.calls = CountOwn(own, window.window, window_end, own_device, &out);
  IntervalList carried_in;
  for (const CarriedInterval& carried : in_[static_cast<size_t>(kind)]) {
    if (device >= 0 && carried.device != own_device) continue;
    const bool inside = Overlaps(window.window, carried.start, carried.end);
    result.calls += inside && !carried.counted;
    HandOn(window_end, {carried.start, carried.end, carried.device, carried.counted || inside},
           &out);
    carried_in.push_back({carried.start, carried.end});
  }
  JoinCarried(std::move(carried_in), &own);
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
