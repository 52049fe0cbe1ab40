#include "analyzer/summary/intervals.h"

#include <algorithm>

namespace prof::analyzer {

IntervalList MergeIntervals(IntervalList intervals) {
  auto by_start = [](const Interval& a, const Interval& b) {
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  };
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

IntervalList IntersectIntervals(const IntervalList& a, const IntervalList& b) {
  IntervalList result;
  // The most it can hold: each step of the walk below adds at most one. Reserved, a list of
  // millions is written once instead of copied as it doubles (pages never reached stay
  // unmapped, so the bound costs no memory).
  result.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t start = std::max(a[i].start, b[j].start);
    const uint64_t end = std::min(a[i].end, b[j].end);
    if (start < end) result.push_back({start, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return result;
}

uint64_t TotalLength(const IntervalList& intervals) {
  uint64_t total = 0;
  for (const Interval& interval : intervals) total += interval.end - interval.start;
  return total;
}

}  // namespace prof::analyzer
