// The per-thread nesting of host ranges (steps, phases, operators, user and NVTX ranges)
// and the attribution of API calls, and through them of device time, to those ranges.
//
// Rules (README "Range tree"): ranges nest when one starts strictly before the other
// ends; a range that starts inside an open range but ends after it is re-parented to the
// innermost open range that holds it whole (counted). An API call belongs to the
// innermost range on its thread that holds its start; one that ends after that range is
// still attributed there (counted as straddling). GPU time of a range is the sum of the
// device records launched by calls in its subtree (paddle's "launched inside" rule).
//
// Built once per model; immutable afterwards; safe to read from several threads.
#ifndef PROF_ANALYZER_TREE_RANGE_TREE_H_
#define PROF_ANALYZER_TREE_RANGE_TREE_H_

#include <cstdint>
#include <vector>

#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

struct RangeTree {
  // All indexed by the range's index in model.ranges.
  std::vector<int32_t> parent;      // kNoIndex: top level on its thread, or a mark
  std::vector<uint64_t> kernel_ns;  // kernels launched inside the subtree
  std::vector<uint64_t> device_ns;  // kernels + copies + memsets launched inside
  std::vector<uint32_t> preorder;   // ranges in the tree, thread by thread, pre-order
  // Indexed like model.api_calls: the innermost range on the call's thread holding its
  // start (kNoIndex: none), packed. Kept only here: the walks over the device records find
  // their call's range sixteen calls a cache line, not in the 72-byte calls (a cache miss a
  // record), and the sweep over the calls only reads them.
  std::vector<int32_t> call_range;
  // Indexed like model.api_calls: each call's start_ns, packed for the same reason: the
  // analysis context finds each device record's step by its call's start.
  std::vector<uint64_t> call_start;
};

// Also sets the tree counters of model->quality.
RangeTree BuildRangeTree(TraceModel* model);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_TREE_RANGE_TREE_H_
