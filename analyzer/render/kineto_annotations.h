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

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_KINETO_ANNOTATIONS_H_
