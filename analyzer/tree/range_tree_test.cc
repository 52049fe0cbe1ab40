#include <catch2/catch.hpp>

#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"
#include "analyzer/tree/range_tree.h"

namespace prof::analyzer {
namespace {

int32_t RangeNamed(const TraceModel& model, const std::string& name) {
  for (size_t i = 0; i < model.ranges.size(); ++i) {
    if (model.names.Get(model.ranges[i].name) == name) return static_cast<int32_t>(i);
  }
  return -2;
}

int32_t CallStartingAt(const TraceModel& model, uint64_t start) {
  for (size_t i = 0; i < model.api_calls.size(); ++i) {
    if (model.api_calls[i].start_ns == start) return static_cast<int32_t>(i);
  }
  return -2;
}

TEST_CASE("ranges nest per thread; overlaps are re-parented; calls go to the innermost range") {
  testing::TestTrace trace;
  const auto user = schema::RANGE_KIND_USER;
  trace.Range(1, user, "A", 0, 100);
  trace.Range(1, user, "B", 50, 150);  // overlaps A: re-parented to the top level
  trace.ApiCall(1, "cudaGetDevice", 20, 60);
  trace.ApiCall(1, "cudaGetDevice", 90, 120);
  trace.Range(1, user, "C", 200, 300);
  trace.ApiCall(1, "cudaGetDevice", 290, 310);  // straddles C's end
  trace.Range(1, user, "D", 400, 400);          // zero length: holds nothing
  trace.ApiCall(1, "cudaGetDevice", 400, 405);
  trace.Range(1, user, "E", 500, 600);
  trace.Range(1, user, "F", 510, 520);
  trace.Launch(1, 515, 516, "k", 0, 7, 530, 630);
  trace.Range(2, user, "G", 505, 700);  // another thread: never a parent of thread 1's calls
  TraceModel model = testing::LoadOrDie(trace.Write("tree.pb"));
  const RangeTree tree = BuildRangeTree(&model);

  CHECK(tree.parent[RangeNamed(model, "B")] == kNoIndex);
  CHECK(tree.parent[RangeNamed(model, "F")] == RangeNamed(model, "E"));
  CHECK(tree.parent[RangeNamed(model, "G")] == kNoIndex);
  CHECK(model.quality.reparented_ranges == 1);
  CHECK(model.quality.straddling_api_calls == 1);
  CHECK(model.api_calls[CallStartingAt(model, 20)].parent_range == RangeNamed(model, "A"));
  CHECK(model.api_calls[CallStartingAt(model, 90)].parent_range == RangeNamed(model, "B"));
  CHECK(model.api_calls[CallStartingAt(model, 290)].parent_range == RangeNamed(model, "C"));
  CHECK(model.api_calls[CallStartingAt(model, 400)].parent_range == kNoIndex);
  CHECK(model.api_calls[CallStartingAt(model, 515)].parent_range == RangeNamed(model, "F"));
  CHECK(tree.kernel_ns[RangeNamed(model, "F")] == 100);
  CHECK(tree.kernel_ns[RangeNamed(model, "E")] == 100);
  CHECK(tree.device_ns[RangeNamed(model, "G")] == 0);
}

TEST_CASE("identical ranges nest in file order and device time sums through the subtree") {
  testing::TestTrace trace;
  trace.Range(1, schema::RANGE_KIND_OPERATOR, "outer", 0, 1000);
  trace.Range(1, schema::RANGE_KIND_OPERATOR, "inner", 0, 1000);
  const uint64_t copy = trace.ApiCall(1, "cudaMemcpyAsync", 10, 20);
  trace.Memcpy(0, 7, 30, 80, 1024, schema::COPY_KIND_HOST_TO_DEVICE, copy);
  trace.Launch(1, 30, 40, "k", 0, 8, 50, 60);
  TraceModel model = testing::LoadOrDie(trace.Write("same.pb"));
  const RangeTree tree = BuildRangeTree(&model);
  CHECK(tree.parent[RangeNamed(model, "inner")] == RangeNamed(model, "outer"));
  CHECK(tree.device_ns[RangeNamed(model, "outer")] == 60);
  CHECK(tree.kernel_ns[RangeNamed(model, "outer")] == 10);
  CHECK(model.quality.reparented_ranges == 0);
}

// Calls of two threads interleaved in time are not in (thread, start) order: the sweep
// takes them through a sorted index and still finds each one's own thread's range.
TEST_CASE("interleaved threads' calls go to their own thread's ranges") {
  testing::TestTrace trace;
  const auto user = schema::RANGE_KIND_USER;
  trace.Range(2, user, "T2", 0, 100);
  trace.Range(1, user, "T1", 0, 100);
  trace.ApiCall(2, "cudaGetDevice", 10, 20);
  trace.ApiCall(1, "cudaGetDevice", 30, 40);
  trace.ApiCall(2, "cudaGetDevice", 50, 60);
  TraceModel model = testing::LoadOrDie(trace.Write("interleaved.pb"));
  BuildRangeTree(&model);
  CHECK(model.api_calls[CallStartingAt(model, 10)].parent_range == RangeNamed(model, "T2"));
  CHECK(model.api_calls[CallStartingAt(model, 30)].parent_range == RangeNamed(model, "T1"));
  CHECK(model.api_calls[CallStartingAt(model, 50)].parent_range == RangeNamed(model, "T2"));
}

}  // namespace
}  // namespace prof::analyzer
