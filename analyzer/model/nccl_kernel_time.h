// GPU time of the NCCL kernels each recorded NCCL call launched. NCCL calls carry no
// correlation id, so a kernel belongs to the call on its launching thread whose time span
// holds the launching API call. Used by the NCCL Summary, by compare's bus bandwidth and
// by the per-rank collective table (the job view's arrivals and ends).
#ifndef PROF_ANALYZER_MODEL_NCCL_KERNEL_TIME_H_
#define PROF_ANALYZER_MODEL_NCCL_KERNEL_TIME_H_

#include <cstdint>
#include <vector>

#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// One entry per model.nccl_calls row: the summed duration of its NCCL kernels (0: none).
std::vector<uint64_t> NcclKernelTimePerCall(const TraceModel& model);

// The span of a call's NCCL kernels: the first start and the last end (host clock).
struct NcclKernelSpan {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool linked = false;  // false: no kernel could be linked to the call
};

// One entry per model.nccl_calls row.
std::vector<NcclKernelSpan> NcclKernelSpanPerCall(const TraceModel& model);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_NCCL_KERNEL_TIME_H_
