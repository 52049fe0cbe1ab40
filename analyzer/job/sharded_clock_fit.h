// FitClocks (clock_fit.h) over processes that each own some communicators' matched
// collectives (sharded_collectives.h): the same breadth-first rounds, each one exchange.
// A round's samples go to the process that fits their rank (`RankFitter`), which sorts
// them into the in-process order (communicator, then sequence) before the least squares,
// so every fitted clock is the in-process one to the bit; the new clocks are then shared
// with every process (a clock is per rank: the job's share of them is small). Residual
// quantiles over the whole job come from an exact distributed search, not from gathering
// every residual.
#ifndef PROF_ANALYZER_JOB_SHARDED_CLOCK_FIT_H_
#define PROF_ANALYZER_JOB_SHARDED_CLOCK_FIT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer/job/clock_fit.h"
#include "analyzer/job/collective_match.h"
#include "analyzer/job/exchange.h"

namespace prof::analyzer {

// The process that fits rank `index`'s clock and sums its waits.
inline int RankFitter(uint32_t index, int processes) {
  return static_cast<int>(index % static_cast<uint32_t>(processes));
}

// Orders records (with index, comm_hash, sequence) by rank index, then each rank's by
// (communicator, sequence): the in-process order of a rank's collectives. A counting sort
// by rank; a rank's records arrive as one sorted run per sender, so with one sender nothing
// is sorted at all, and with many only each rank's few.
template <typename T>
void SortRankRuns(std::vector<T>* records) {
  if (records->empty()) return;
  uint32_t ranks = 0;
  for (const T& record : *records) ranks = std::max(ranks, record.index + 1);
  std::vector<size_t> start(ranks + 1, 0);
  for (const T& record : *records) ++start[record.index + 1];
  for (uint32_t rank = 0; rank < ranks; ++rank) start[rank + 1] += start[rank];
  std::vector<T> sorted(records->size());
  std::vector<size_t> next(start.begin(), start.end() - 1);
  for (const T& record : *records) sorted[next[record.index]++] = record;
  const auto before = [](const T& a, const T& b) {
    return a.comm_hash < b.comm_hash || (a.comm_hash == b.comm_hash && a.sequence < b.sequence);
  };
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    const auto first = sorted.begin() + start[rank], last = sorted.begin() + start[rank + 1];
    if (!std::is_sorted(first, last, before)) std::sort(first, last, before);
  }
  records->swap(sorted);
}

struct ShardedFit {
  ClockFit clock;  // the same on every process, but each rank's residual_ns (0 here)
  std::vector<std::pair<uint32_t, double>> residuals;  // the ranks this process fits
};

// `owned`: the collectives this process matched (MatchCollectives over its communicators).
ShardedFit FitClocksSharded(Exchange& exchange, const CollectiveMatch& owned, size_t rank_count);

// For each k of `ks`, the k-th smallest (from 0) of every process's `values` together, all
// >= 0; each k < their count.
std::vector<double> KthSmallestSharded(Exchange& exchange, const std::vector<double>& values,
                                       const std::vector<uint64_t>& ks);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_SHARDED_CLOCK_FIT_H_
