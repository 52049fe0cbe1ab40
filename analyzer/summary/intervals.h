// Interval arithmetic on [start, end) nanosecond ranges, as paddle's statistic_helper:
// merging (touching ranges merge), union, intersection and total length. Pure functions;
// every result is sorted and disjoint.
#ifndef PROF_ANALYZER_SUMMARY_INTERVALS_H_
#define PROF_ANALYZER_SUMMARY_INTERVALS_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace prof::analyzer {

struct Interval {
  uint64_t start = 0;
  uint64_t end = 0;
  bool operator==(const Interval& other) const { return start == other.start && end == other.end; }
};
using IntervalList = std::vector<Interval>;

// Sorts (if needed) and merges overlapping or touching intervals.
IntervalList MergeIntervals(IntervalList intervals);
// Both inputs sorted and disjoint.
IntervalList UniteIntervals(const IntervalList& a, const IntervalList& b);
IntervalList IntersectIntervals(const IntervalList& a, const IntervalList& b);
// IntersectIntervals(intervals, window), written into the storage of `intervals` where it
// fits (it does unless an interval spans a gap of `window`): no second list of millions.
IntervalList ClipIntervals(IntervalList intervals, const IntervalList& window);
uint64_t TotalLength(const IntervalList& intervals);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_INTERVALS_H_
