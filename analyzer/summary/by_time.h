// The order of a window's timed records (memory records, allocator samples) by time: the
// agent writes them per thread, so a file holds them in time order only per thread.
#ifndef PROF_ANALYZER_SUMMARY_BY_TIME_H_
#define PROF_ANALYZER_SUMMARY_BY_TIME_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace prof::analyzer {

// Indices of `records` sorted by their time_ns; ties keep the file's order.
template <typename Timed>
std::vector<uint32_t> IndicesByTime(const std::vector<Timed>& records) {
  std::vector<uint32_t> order(records.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return records[a].time_ns < records[b].time_ns; });
  return order;
}

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_BY_TIME_H_
