// Self time of every range in the tree, as torch.profiler's key_averages shows it: the
// range's own CPU time (its duration minus its direct children's durations) and the
// device time launched by its own API calls (its subtree's minus its children's
// subtrees'). Children overlapping each other or sticking out (re-parented ranges) can
// make the difference negative; it is clipped at 0.
#ifndef PROF_ANALYZER_SUMMARY_SELF_TIME_H_
#define PROF_ANALYZER_SUMMARY_SELF_TIME_H_

#include <cstdint>
#include <vector>

#include "analyzer/summary/analysis_context.h"

namespace prof::analyzer {

struct SelfTimes {
  // Indexed like model.ranges; 0 for ranges outside the tree (marks).
  std::vector<uint64_t> cpu_ns;
  std::vector<uint64_t> kernel_ns;  // kernels only
  std::vector<uint64_t> device_ns;  // kernels, copies and memsets
};

// The window's self times, computed on the first call and kept in the context.
const SelfTimes& SelfTimesOf(const AnalysisContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_SELF_TIME_H_
