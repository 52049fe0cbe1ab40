#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

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
  CHECK(tree.call_range[CallStartingAt(model, 20)] == RangeNamed(model, "A"));
  CHECK(tree.call_range[CallStartingAt(model, 90)] == RangeNamed(model, "B"));
  CHECK(tree.call_range[CallStartingAt(model, 290)] == RangeNamed(model, "C"));
  CHECK(tree.call_range[CallStartingAt(model, 400)] == kNoIndex);
  CHECK(tree.call_range[CallStartingAt(model, 515)] == RangeNamed(model, "F"));
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
  const RangeTree tree = BuildRangeTree(&model);
  CHECK(tree.call_range[CallStartingAt(model, 10)] == RangeNamed(model, "T2"));
  CHECK(tree.call_range[CallStartingAt(model, 30)] == RangeNamed(model, "T1"));
  CHECK(tree.call_range[CallStartingAt(model, 50)] == RangeNamed(model, "T2"));
}

HostRange RangeOn(uint64_t thread, uint64_t start, uint64_t end) {
  HostRange range;
  range.thread_id = thread;
  range.start_ns = start;
  range.end_ns = end;
  return range;
}

ApiCall CallOn(uint64_t thread, uint64_t start, uint64_t end) {
  ApiCall call;
  call.thread_id = thread;
  call.start_ns = start;
  call.end_ns = end;
  return call;
}

// Calls in (thread, start) order until the fourth, which starts before the third: the
// sweep over the calls in place stops there and takes them all in sorted order, counting
// the straddling call (at 15, past [0, 18)'s end) once.
TEST_CASE("calls in order, then one out of order, are each attributed once") {
  TraceModel model;
  model.ranges = {RangeOn(1, 0, 18), RangeOn(1, 20, 30), RangeOn(1, 40, 50)};
  model.api_calls = {CallOn(1, 5, 6), CallOn(1, 15, 19), CallOn(1, 42, 43), CallOn(1, 25, 26),
                     CallOn(1, 35, 36)};
  const RangeTree tree = BuildRangeTree(&model);
  // The packed copies, indexed like the calls, as the sorted sweep left them.
  CHECK(tree.call_range == std::vector<int32_t>{0, 0, 2, 1, kNoIndex});
  CHECK(model.quality.straddling_api_calls == 1);
  CHECK(tree.call_start == std::vector<uint64_t>{5, 15, 42, 25, 35});
}

DeviceActivity RecordOf(DeviceKind kind, int32_t call, uint64_t start, uint64_t end) {
  DeviceActivity activity;
  activity.kind = kind;
  activity.api_call = call;
  activity.start_ns = start;
  activity.end_ns = end;
  return activity;
}

// The third call starts before the second: the sweep in place stops there and the sorted
// sweep attributes all three again. Each record's time must reach its call's range as the
// sorted sweep found it (by hand: call 0 in range 0, call 1 in range 2, call 2 in range 1).
TEST_CASE("device time goes to each call's range when the calls are out of order") {
  TraceModel model;
  model.ranges = {RangeOn(1, 0, 18), RangeOn(1, 20, 30), RangeOn(1, 40, 50)};
  model.api_calls = {CallOn(1, 5, 6), CallOn(1, 42, 43), CallOn(1, 25, 26)};
  model.device_activities = {RecordOf(DeviceKind::kKernel, 1, 100, 107),
                             RecordOf(DeviceKind::kMemcpy, 2, 110, 113),
                             RecordOf(DeviceKind::kKernel, 0, 120, 131),
                             RecordOf(DeviceKind::kSynchronization, 2, 140, 190)};
  const RangeTree tree = BuildRangeTree(&model);
  CHECK(tree.device_ns == std::vector<uint64_t>{11, 3, 7});
  CHECK(tree.kernel_ns == std::vector<uint64_t>{11, 0, 7});
}

// The parents of calls on `thread`, with another thread's range (on thread 0) sorted
// before `thread`'s ranges.
std::vector<int32_t> CallParentsOnThread(uint64_t thread) {
  TraceModel model;
  model.ranges = {RangeOn(0, 0, 100), RangeOn(thread, 0, 50), RangeOn(thread, 10, 20)};
  model.api_calls = {CallOn(thread, 5, 6), CallOn(thread, 12, 13), CallOn(thread, 30, 60),
                     CallOn(thread, 70, 71)};
  std::vector<int32_t> parents = BuildRangeTree(&model).call_range;
  parents.push_back(static_cast<int32_t>(model.quality.straddling_api_calls));
  return parents;
}

// A thread id of all ones is a thread id like any other: the sweep once began with it as
// "no thread yet" and so never skipped the lower threads' ranges for a first call on it.
TEST_CASE("calls on the all-ones thread id are attributed as on thread 1") {
  // By hand: [5,6) and [30,60) in range 1 [0,50), the latter straddling its end; [12,13)
  // in range 2 [10,20); [70,71) in none. The last entry is the straddling count.
  const std::vector<int32_t> expected{1, 2, 1, kNoIndex, 1};
  CHECK(CallParentsOnThread(1) == expected);
  CHECK(CallParentsOnThread(~uint64_t{0}) == expected);
}

// Ranges as the agent writes them, when they end: inner ranges first, their enclosing
// range (a step) after them; the pre-order puts each enclosing range first.
TEST_CASE("ranges written as they end come out in pre-order") {
  TraceModel model;
  model.ranges = {RangeOn(1, 0, 10),  RangeOn(1, 2, 10),  RangeOn(1, 10, 20),
                  RangeOn(1, 12, 20), RangeOn(1, 0, 20),  // step 1 after its four ranges
                  RangeOn(1, 20, 30), RangeOn(1, 20, 30)};  // identical: file order
  const RangeTree tree = BuildRangeTree(&model);
  CHECK(tree.preorder == std::vector<uint32_t>{4, 0, 1, 2, 3, 5, 6});
  CHECK(tree.parent == std::vector<int32_t>{4, 0, 4, 2, kNoIndex, kNoIndex, 5});
}

// Nearly in order (a few ranges moved to the end, as late enclosing ranges are), and
// shuffled with two threads interleaved (the full sort): the pre-order must be the one the
// README states, (thread, start, longest first, index), whatever the arrival order.
TEST_CASE("the pre-order is (thread, start, longest first, index) for any arrival order") {
  std::mt19937 random(7);
  for (bool nearly_sorted : {true, false}) {
    TraceModel model;
    for (uint64_t i = 0; i < 2000; ++i) {
      const uint64_t start = random() % (nearly_sorted ? 100000 : 500);
      model.ranges.push_back(RangeOn(1 + i % 2, start, start + random() % 50));
    }
    std::vector<HostRange>& r = model.ranges;
    if (nearly_sorted) {
      std::sort(r.begin(), r.end(), [](const HostRange& a, const HostRange& b) {
        return std::tie(a.thread_id, a.start_ns) < std::tie(b.thread_id, b.start_ns);
      });
      for (int i = 0; i < 20; ++i) {
        const auto moved = r.begin() + random() % 1900;
        std::rotate(moved, moved + 1, r.end());
      }
    }
    std::vector<uint32_t> expected(r.size());
    for (uint32_t i = 0; i < expected.size(); ++i) expected[i] = i;
    std::sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) {
      if (r[a].thread_id != r[b].thread_id) return r[a].thread_id < r[b].thread_id;
      if (r[a].start_ns != r[b].start_ns) return r[a].start_ns < r[b].start_ns;
      if (r[a].end_ns != r[b].end_ns) return r[a].end_ns > r[b].end_ns;
      return a < b;
    });
    CHECK(BuildRangeTree(&model).preorder == expected);
  }
}

}  // namespace
}  // namespace prof::analyzer
