// Which range a call belongs to and the GPU spans of annotations, on a model built by hand:
// the expected values follow from Kineto's rule (kineto_annotations.h) by hand.
#include "analyzer/render/kineto_annotations.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

HostRange Range(RangeType type, uint64_t thread, uint64_t start, uint64_t end) {
  HostRange range;
  range.type = type;
  range.thread_id = thread;
  range.start_ns = start;
  range.end_ns = end;
  return range;
}

ApiCall Call(uint64_t thread, uint64_t start) {
  ApiCall call;
  call.thread_id = thread;
  call.start_ns = start;
  call.end_ns = start + 10;
  return call;
}

DeviceActivity Record(int32_t call, uint32_t stream, uint64_t start, uint64_t end,
                      DeviceKind kind = DeviceKind::kKernel) {
  DeviceActivity activity;
  activity.api_call = call;
  activity.stream = stream;
  activity.start_ns = start;
  activity.end_ns = end;
  activity.kind = kind;
  return activity;
}

// Thread 1: step [0, 1000) > phase Forward [100, 400) > operator [150, 300); user range
// [500, 700) > NVTX [550, 650). Calls: 0 at 200 (in the operator, Forward, the step),
// 1 at 600 (in the NVTX range, the user range), 2 at 800 (the step only), 3 on thread 2.
TraceModel Model() {
  TraceModel model;
  model.ranges = {Range(RangeType::kProfileStep, 1, 0, 1000),
                  Range(RangeType::kForward, 1, 100, 400),
                  Range(RangeType::kOperator, 1, 150, 300),
                  Range(RangeType::kUserDefined, 1, 500, 700),
                  Range(RangeType::kNvtx, 1, 550, 650)};
  model.api_calls = {Call(1, 200), Call(1, 600), Call(1, 800), Call(2, 250)};
  return model;
}

TEST_CASE("EnclosingRanges: the innermost counted range on the call's thread") {
  const TraceModel model = Model();
  CHECK(EnclosingRanges(model, IsOperatorRange) == std::vector<int32_t>{2, kNoIndex, kNoIndex,
                                                                        kNoIndex});
  // Phases and NVTX ranges are no annotation: call 0 is the step's, call 1 the user range's.
  CHECK(EnclosingRanges(model, IsKinetoAnnotation) == std::vector<int32_t>{0, 3, 0, kNoIndex});
}

TEST_CASE("GpuAnnotations: each annotation's records per stream, synchronizations left out") {
  TraceModel model = Model();
  model.device_activities = {Record(0, 7, 1000, 1100), Record(2, 7, 1500, 1600),
                             Record(1, 7, 1200, 1300), Record(2, 9, 1700, 1750),
                             Record(3, 7, 900, 2000), Record(kNoIndex, 7, 50, 3000),
                             Record(2, 7, 1000, 5000, DeviceKind::kSynchronization)};
  const std::vector<GpuAnnotation> spans =
      GpuAnnotations(model, EnclosingRanges(model, IsKinetoAnnotation));
  REQUIRE(spans.size() == 3);
  // By start: the step on stream 7 [1000, 1600), the user range [1200, 1300), the step on 9.
  CHECK((spans[0].range == 0 && spans[0].stream == 7));
  CHECK((spans[0].start_ns == 1000 && spans[0].end_ns == 1600));
  CHECK((spans[1].range == 3 && spans[1].stream == 7));
  CHECK((spans[1].start_ns == 1200 && spans[1].end_ns == 1300));
  CHECK((spans[2].range == 0 && spans[2].stream == 9));
  CHECK((spans[2].start_ns == 1700 && spans[2].end_ns == 1750));
}

}  // namespace
}  // namespace prof::analyzer
