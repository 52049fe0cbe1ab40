#include "analyzer/summary/window_carry.h"

#include <algorithm>
#include <cstdint>
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
// union's own events number millions). Holds pointers into the window's storage, not the
// vector, so the walk keeps them in registers.
class OverlapCursor {
 public:
  explicit OverlapCursor(const IntervalList& window)
      : next_(window.data()), end_(window.data() + window.size()) {}

  // `start` is at least the previous call's.
  bool Overlaps(uint64_t start, uint64_t end) {
    while (next_ != end_ && next_->end <= start) ++next_;
    if (next_ == end_) return false;
    return next_->start < end || (start == end && next_->start <= start);
  }

 private:
  const Interval* next_;
  const Interval* end_;
};

// OverlapCursor's answer for the usual window, one span: nothing to step over, so the
// walk over millions of events tests each with two comparisons.
class SpanOverlap {
 public:
  explicit SpanOverlap(const Interval& span) : span_(span) {}

  bool Overlaps(uint64_t start, uint64_t end) const {
    return span_.end > start && (span_.start < end || (start == end && span_.start <= start));
  }

 private:
  Interval span_;
};

// Hands on the part of `interval` past the window's end (0: nothing runs past it).
void HandOn(uint64_t window_end, CarriedInterval interval, std::vector<CarriedInterval>* out) {
  if (window_end == 0 || interval.end <= window_end) return;
  interval.start = std::max(interval.start, window_end);
  out->push_back(interval);
}

// Where the parts past a window's end go: read only when an event runs past it, so the
// walk over the events keeps none of it in registers.
struct HandOver {
  uint64_t window_end;  // 0: nothing runs past the window
  uint32_t device;
  std::vector<CarriedInterval>* out;
};

// `interval` clamped to `span` (empty when they do not overlap).
Interval Clamped(Interval interval, Interval span) {
  return {std::max(interval.start, span.start), std::min(interval.end, span.end)};
}

// What one walk over a window's own events leaves: own[0, kept) is the union of
// own[0, read), clamped to the walk's span, sorted and disjoint, without empty intervals;
// own[read, size) was not reached (read < size: the event at `read` starts before the one
// read before it).
struct MergedPrefix {
  size_t kept = 0;
  size_t read = 0;
  uint64_t calls = 0;  // of own[0, read), inside the window
};

// Counts the events inside the window, hands on what runs past its end and merges them in
// place, clamped to `span`, in one walk: a union's events number millions and nearly
// always come in start order (a stream's device records, a thread's calls), so a sort
// check, a count, a merge and a clip, each a pass of its own, read them four times. Stops
// at the first event out of start order, which MergeRest takes from there. Empty merged
// intervals are dropped: every union is clipped, which drops them, and a point touching
// two intervals joins nothing that does not touch already.
// Not inlined: alone, the compiler keeps the walk's state in registers; inlined into
// Union, it spilled part of it to the stack (a quarter more instructions a walk).
// `cursor` (an OverlapCursor, or a SpanOverlap for a window of one span) tells which events
// lie inside the window.
template <typename Window>
__attribute__((noinline)) MergedPrefix CountAndMerge(IntervalList* own, Window cursor,
                                                     Interval span, const HandOver& hand_over) {
  if (own->empty()) return {};
  const Interval* const first = own->data();
  const Interval* const last = first + own->size();
  const uint64_t hand_on_past = hand_over.window_end == 0 ? UINT64_MAX : hand_over.window_end;
  Interval* kept = own->data();  // below `read`: it overwrites events already read
  uint64_t calls = 0, last_start = first->start;
  Interval group{first->start, first->start};  // grown until an event starts past its end
  // One event counted and merged; true when it lies inside the window.
  auto take = [&](uint64_t start, uint64_t end) {
    last_start = start;
    const bool inside = cursor.Overlaps(start, end);
    calls += inside;
    if (start <= group.end) {  // touching events merge, as in MergeIntervals
      group.end = std::max(group.end, end);
    } else {
      const Interval clamped = Clamped(group, span);
      if (clamped.start < clamped.end) *kept++ = clamped;
      group = {start, end};
    }
    return inside;
  };
  const Interval* read = first;
  while (read != last) {
    // The events that need no hand-on, the bulk: no call in this loop, so its state stays
    // in registers (a call clobbers most of them).
    for (; read != last; ++read) {
      if (read->start < last_start || read->end > hand_on_past) break;
      take(read->start, read->end);
    }
    if (read == last || read->start < last_start) break;
    const Interval event = *read++;
    const bool inside = take(event.start, event.end);
    HandOn(hand_over.window_end, {event.start, event.end, hand_over.device, inside},
           hand_over.out);
  }
  const Interval clamped = Clamped(group, span);
  if (clamped.start < clamped.end) *kept++ = clamped;
  return {static_cast<size_t>(kept - first), static_cast<size_t>(read - first), calls};
}

// The events CountAndMerge did not reach, out of start order: each counted with a search
// of its own, then sorted alone and merged into the prefix's union, which is sorted
// already (a sort of the whole list sorted the prefix's millions again when calls of two
// threads interleave early). In place: no second list of millions. Returns their calls.
uint64_t MergeRest(const MergedPrefix& prefix, const IntervalList& window,
                   const HandOver& hand_over, IntervalList* own) {
  uint64_t calls = 0;
  for (size_t i = prefix.read; i < own->size(); ++i) {
    const Interval event = (*own)[i];
    const bool inside = Overlaps(window, event.start, event.end);
    calls += inside;
    HandOn(hand_over.window_end, {event.start, event.end, hand_over.device, inside},
           hand_over.out);
  }
  auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  std::sort(own->begin() + prefix.read, own->end(), by_start);
  own->erase(own->begin() + prefix.kept, own->begin() + prefix.read);
  std::inplace_merge(own->begin(), own->begin() + prefix.kept, own->end(), by_start);
  *own = MergeIntervals(std::move(*own));  // sorted now: merged without a sort
  return calls;
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
  IntervalList carried_in;
  for (const CarriedInterval& carried : in_[static_cast<size_t>(kind)]) {
    if (device >= 0 && carried.device != own_device) continue;
    const bool inside = Overlaps(window.window, carried.start, carried.end);
    result.calls += inside && !carried.counted;
    HandOn(window_end, {carried.start, carried.end, carried.device, carried.counted || inside},
           &out);
    carried_in.push_back({carried.start, carried.end});
  }
  // The usual window (one span, nothing carried in) is clipped in the walk; any other
  // union is clipped once whole.
  const bool clip_in_walk = window.window.size() == 1 && carried_in.empty();
  const Interval no_clamp{0, UINT64_MAX};
  const HandOver hand_over{window_end, own_device, &out};
  const Interval clamp = clip_in_walk ? window.window.front() : no_clamp;
  const MergedPrefix prefix =
      window.window.size() == 1
          ? CountAndMerge(&own, SpanOverlap(window.window.front()), clamp, hand_over)
          : CountAndMerge(&own, OverlapCursor(window.window), clamp, hand_over);
  result.calls += prefix.calls;
  const bool whole = prefix.read == own.size();
  if (whole) {
    own.resize(prefix.kept);
  } else {
    result.calls += MergeRest(prefix, window.window, hand_over, &own);
  }
  // The carried work is a handful of intervals: merged alone, then joined to the union.
  if (!carried_in.empty()) own = UniteIntervals(MergeIntervals(std::move(carried_in)), own);
  result.intervals =
      clip_in_walk && whole ? std::move(own) : ClipIntervals(std::move(own), window.window);
  return result;
}

std::vector<uint32_t> WindowCarry::CarriedDevices() const {
  std::set<uint32_t> devices;
  for (const CarriedInterval& carried : in_[static_cast<size_t>(UnionKind::kKernelsByDevice)]) {
    devices.insert(carried.device);
  }
  return {devices.begin(), devices.end()};
}

bool WindowCarry::CarriesLike(UnionKind kind, UnionKind like) const {
  // A handful of intervals at most (the work in flight at a window's end), in any order.
  auto intervals = [this](UnionKind of) {
    IntervalList list;
    for (const CarriedInterval& carried : in_[static_cast<size_t>(of)])
      list.push_back({carried.start, carried.end});
    std::sort(list.begin(), list.end(), [](const Interval& a, const Interval& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    return list;
  };
  return intervals(kind) == intervals(like);
}

void WindowCarry::HandOnLike(UnionKind kind, UnionKind like) {
  out_[static_cast<size_t>(kind)] = out_[static_cast<size_t>(like)];
}

void WindowCarry::NextWindow() {
  in_ = std::move(out_);
  out_ = Lists();
}

}  // namespace prof::analyzer
