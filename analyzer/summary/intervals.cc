#include "analyzer/summary/intervals.h"

#include <algorithm>

namespace prof::analyzer {

IntervalList MergeIntervals(IntervalList intervals) {
  // By start only: the merge keeps the longest end of equal starts in any order, and
  // nested ranges that start together (ends descending) need no sort.
  auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  if (!std::is_sorted(intervals.begin(), intervals.end(), by_start)) {
    std::sort(intervals.begin(), intervals.end(), by_start);
  }
  // Merged in place: the input's storage is reused, so a union of N intervals needs 16 N
  // bytes, not twice that.
  size_t kept = 0;
  for (size_t i = 0; i < intervals.size(); ++i) {
    if (kept > 0 && intervals[i].start <= intervals[kept - 1].end) {
      intervals[kept - 1].end = std::max(intervals[kept - 1].end, intervals[i].end);
    } else {
      intervals[kept++] = intervals[i];
    }
  }
  intervals.resize(kept);
  return intervals;
}

IntervalList UniteIntervals(const IntervalList& a, const IntervalList& b) {
  IntervalList all;
  all.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(all),
             [](const Interval& x, const Interval& y) { return x.start < y.start; });
  return MergeIntervals(std::move(all));
}

namespace {

// Calls emit(piece, i) for each piece of a ∩ b in order, i the index in `a` of the piece's
// interval. Each interval of `a` is read once, when the walk reaches it, so `emit` may
// overwrite a[k] for any k <= i.
template <typename Emit>
void ForEachPiece(const IntervalList& a, const IntervalList& b, Emit emit) {
  if (a.empty()) return;
  size_t i = 0, j = 0;
  Interval current = a[0];
  while (j < b.size()) {
    const uint64_t start = std::max(current.start, b[j].start);
    const uint64_t end = std::min(current.end, b[j].end);
    if (start < end) emit(Interval{start, end}, i);
    if (current.end < b[j].end) {
      if (++i == a.size()) return;
      current = a[i];
    } else {
      ++j;
    }
  }
}

}  // namespace

IntervalList IntersectIntervals(const IntervalList& a, const IntervalList& b) {
  IntervalList result;
  // The most it can hold: each step of the walk adds at most one. Reserved, a list of
  // millions is written once instead of copied as it doubles (pages never reached stay
  // unmapped, so the bound costs no memory).
  result.reserve(a.size() + b.size());
  ForEachPiece(a, b, [&](const Interval& piece, size_t) { result.push_back(piece); });
  return result;
}

namespace {

// ClipIntervals for the usual window, one span (a process's steps follow one another
// without gaps): each interval is clamped to it, no walk beside the window's pieces.
IntervalList ClipToSpan(IntervalList intervals, const Interval& span) {
  size_t kept = 0;
  for (size_t i = 0; i < intervals.size(); ++i) {
    const uint64_t start = std::max(intervals[i].start, span.start);
    const uint64_t end = std::min(intervals[i].end, span.end);
    if (start < end) intervals[kept++] = {start, end};
  }
  intervals.resize(kept);
  return intervals;
}

}  // namespace

IntervalList ClipIntervals(IntervalList intervals, const IntervalList& window) {
  if (window.size() == 1) return ClipToSpan(std::move(intervals), window.front());
  // Pieces are written over the intervals already read; only when an interval is cut into
  // more pieces than that leaves room for (it spans a gap of `window`) do the pieces move
  // to a list of their own.
  size_t kept = 0;
  IntervalList spilled;
  bool in_place = true;
  ForEachPiece(intervals, window, [&](const Interval& piece, size_t i) {
    if (in_place && kept > i) {
      in_place = false;
      spilled.reserve(intervals.size() + window.size());
      spilled.assign(intervals.begin(), intervals.begin() + kept);
    }
    if (in_place) {
      intervals[kept++] = piece;
    } else {
      spilled.push_back(piece);
    }
  });
  if (!in_place) return spilled;
  intervals.resize(kept);
  return intervals;
}

uint64_t TotalLength(const IntervalList& intervals) {
  uint64_t total = 0;
  for (const Interval& interval : intervals) total += interval.end - interval.start;
  return total;
}

}  // namespace prof::analyzer
