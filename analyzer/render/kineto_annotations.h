// Which host range a CUDA call belongs to in a Kineto trace, and the GPU spans Kineto draws
// for record_function ranges ("gpu_user_annotation"), computed from the model as
// libkineto's CuptiActivityProfiler computes them from CUPTI's external correlation ids:
// PyTorch pushes a user correlation id at each record_function range (USER_SCOPE:
// ProfilerStep#N, Optimizer.step#..., the program's own), per thread, so a GPU record
// belongs to the innermost such range open at its launch on the launching thread; each
// range's span on a stream runs from the first start to the last end of its records there.
// Ranges on other threads (autograd's backward thread) hold none of them.
#ifndef PROF_ANALYZER_RENDER_KINETO_ANNOTATIONS_H_
#define PROF_ANALYZER_RENDER_KINETO_ANNOTATIONS_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// Whether torch.profiler writes a range of this type as a record_function range that
// Kineto gives GPU spans: steps and user ranges (the Python helper replays record_function
// ranges as user ranges). Not NVTX ranges, not the helper's model phases (torch has no
// such ranges; counting them would take the step's kernels from the step).
bool IsKinetoAnnotation(RangeType type);
inline bool IsOperatorRange(RangeType type) { return type == RangeType::kOperator; }

// For every API call of `model`, the index of the innermost range of a type `counts`
// accepts holding the call's start on the call's thread; kNoIndex for none.
std::vector<int32_t> EnclosingRanges(const TraceModel& model, bool (*counts)(RangeType));

// One range's GPU span on one stream.
struct GpuAnnotation {
  int32_t range = kNoIndex;  // index in model.ranges
  uint32_t device = 0;
  uint32_t stream = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

// The spans of the device records whose launch lies in an annotation;
// `call_annotations`: EnclosingRanges(model, IsKinetoAnnotation). By start, then range,
// device and stream (Kineto's order is its hash maps').
std::vector<GpuAnnotation> GpuAnnotations(const TraceModel& model,
                                          const std::vector<int32_t>& call_annotations);

// What takes a Kineto "External id": operator and annotation ranges, and NCCL calls but
// group starts and ends.
bool TakesExternalId(const HostRange& range);
bool TakesExternalId(const NcclCall& call);
// The ranges of `model` that take an External id.
uint64_t KinetoIdRanges(const TraceModel& model);

// Numbers the items that take an External id in start order (ties: model order) from
// `first`, as torch numbers operators as they start; the others get 0. Start order, not
// the file's order (a chunk holds a thread's ranges, then its steps; a range is written when
// it ends), so a window read in slices (cut by start time) numbers them as a whole read.
// Returns how many were numbered. T: HostRange or NcclCall.
template <typename T>
uint64_t NumberExternalIds(const std::vector<T>& items, uint64_t first,
                           std::vector<uint64_t>* ids) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < items.size(); ++i)
    if (TakesExternalId(items[i])) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&items](uint32_t a, uint32_t b) {
    return items[a].start_ns < items[b].start_ns;
  });
  ids->assign(items.size(), 0);
  for (size_t rank = 0; rank < order.size(); ++rank) (*ids)[order[rank]] = first + rank;
  return order.size();
}

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_KINETO_ANNOTATIONS_H_
