// MakeAnalysisContext's record counts: kernel records per device, sorted by device, in
// whatever order the records come (runs on one device, returns to an earlier one); and its
// list of the copy records. The expected counts and indices are the hand-made records',
// counted by hand.
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/summary/analysis_context.h"

namespace prof::analyzer {
namespace {

using DeviceCount = std::pair<uint32_t, size_t>;

DeviceActivity Record(DeviceKind kind, uint32_t device) {
  DeviceActivity activity;
  activity.kind = kind;
  activity.device = device;
  activity.start_ns = 10;
  activity.end_ns = 20;
  return activity;
}

RecordCounts CountsOf(const std::vector<DeviceActivity>& records) {
  TraceModel model;
  model.device_activities = records;
  const RangeTree tree;
  return MakeAnalysisContext(model, tree, SummaryOptions{}).counts;
}

TEST_CASE("analysis context: kernels counted per device, in device order") {
  std::vector<DeviceActivity> records;
  for (uint32_t device : {1u, 1u, 0u, 2u, 0u, 0u, 1u})
    records.push_back(Record(DeviceKind::kKernel, device));
  // A copy between the kernels of device 0 and a memset on a device with no kernel.
  records.insert(records.begin() + 5, Record(DeviceKind::kMemcpy, 0));
  records.push_back(Record(DeviceKind::kMemset, 3));
  const RecordCounts counts = CountsOf(records);
  CHECK(counts.kernels_by_device == std::vector<DeviceCount>{{0, 3}, {1, 3}, {2, 1}});
  CHECK(counts.Device(DeviceKind::kKernel) == 7);
  CHECK(counts.Device(DeviceKind::kMemcpy) == 1);
  CHECK(counts.Device(DeviceKind::kMemset) == 1);
}

TEST_CASE("analysis context: device 0 gets an entry only when it has kernels") {
  CHECK(CountsOf({Record(DeviceKind::kMemcpy, 0)}).kernels_by_device.empty());
  CHECK(CountsOf({Record(DeviceKind::kKernel, 0), Record(DeviceKind::kKernel, 0)})
            .kernels_by_device == std::vector<DeviceCount>{{0, 2}});
  CHECK(CountsOf({}).kernels_by_device.empty());
}

TEST_CASE("analysis context: the copy and memset records' indices, in record order") {
  std::vector<DeviceActivity> records;
  for (DeviceKind kind : {DeviceKind::kKernel, DeviceKind::kMemset, DeviceKind::kKernel,
                          DeviceKind::kMemcpy, DeviceKind::kSynchronization, DeviceKind::kMemcpy})
    records.push_back(Record(kind, 0));
  TraceModel model;
  model.device_activities = records;
  const RangeTree tree;
  CHECK(MakeAnalysisContext(model, tree, SummaryOptions{}).copy_records ==
        std::vector<uint32_t>{1, 3, 5});
}

TEST_CASE("duration stats: no calls read as 0; min and max of the calls otherwise") {
  DurationStats none;
  CHECK(none.Max() == 0);
  CHECK(none.Min() == 0);
  CHECK(none.ToStats(10).min_ns == 0);
  CHECK(SortValue(SortKey::kCpuMin, none, none) == 0);
  DurationStats stats;
  for (double duration : {5.0, 3.0, 7.0}) stats.Add(duration);
  CHECK(stats.Max() == 7);
  CHECK(stats.Min() == 3);
  none.Merge(stats);  // an empty side keeps the other's extremes
  CHECK(none.Min() == 3);
  CHECK(none.Max() == 7);
  DurationStats one;
  one.Add(4);  // a single call is both the max and the min
  CHECK(one.ToStats(0).max_ns == 4);
  CHECK(one.ToStats(0).min_ns == 4);
}

}  // namespace
}  // namespace prof::analyzer
