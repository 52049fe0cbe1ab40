#include "analyzer/model/correlation.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

ApiCall CallWithId(uint64_t correlation_id) {
  ApiCall call;
  call.correlation_id = correlation_id;
  return call;
}

DeviceActivity RecordWithId(DeviceKind kind, uint64_t correlation_id) {
  DeviceActivity activity;
  activity.kind = kind;
  activity.correlation_id = correlation_id;
  activity.api_call = 12345;  // overwritten by the link
  return activity;
}

// Calls with ids 5, 6, 6 (a duplicate: the later call wins) and one without an id.
TraceModel ModelWithCallIds(uint64_t base) {
  TraceModel model;
  model.api_calls = {CallWithId(base), CallWithId(base + 1), CallWithId(0), CallWithId(base + 1)};
  model.device_activities = {
      RecordWithId(DeviceKind::kKernel, base + 1),    // call 3, the later of the two
      RecordWithId(DeviceKind::kKernel, base - 1),    // below every id: unmatched
      RecordWithId(DeviceKind::kMemcpy, 0),           // no id: unmatched
      RecordWithId(DeviceKind::kMemset, base),        // call 0
      RecordWithId(DeviceKind::kMemset, base + 500),  // past every id: unmatched
  };
  return model;
}

void CheckLinks(const TraceModel& model) {
  CHECK(model.device_activities[0].api_call == 3);
  CHECK(model.device_activities[1].api_call == kNoIndex);
  CHECK(model.device_activities[2].api_call == kNoIndex);
  CHECK(model.device_activities[3].api_call == 0);
  CHECK(model.device_activities[4].api_call == kNoIndex);
  CHECK(model.quality.duplicate_correlation_ids == 1);
  const std::map<std::string, uint64_t> unmatched{{"Kernel", 1}, {"Memcpy", 1}, {"Memset", 1}};
  CHECK(model.quality.unmatched_device_records == unmatched);
}

TEST_CASE("dense correlation ids: links, duplicates and unmatched records counted") {
  TraceModel model = ModelWithCallIds(5);  // ids 5..6 span 2 slots: the dense index
  LinkDeviceActivitiesToApiCalls(&model);
  CheckLinks(model);
}

TEST_CASE("sparse correlation ids: the same links and counts through the hash map") {
  // Ids 1 and 1000000..1000001: a span of 1e6 over 4 ids, past 4 slots an id + 1024.
  TraceModel model = ModelWithCallIds(1000000);
  model.api_calls.push_back(CallWithId(1));
  LinkDeviceActivitiesToApiCalls(&model);
  CheckLinks(model);
}

TEST_CASE("recounting unmatched records reads the links as they stand") {
  TraceModel model = ModelWithCallIds(5);
  LinkDeviceActivitiesToApiCalls(&model);
  model.device_activities[0].api_call = kNoIndex;
  CountUnmatchedDeviceRecords(&model);
  const std::map<std::string, uint64_t> unmatched{{"Kernel", 2}, {"Memcpy", 1}, {"Memset", 1}};
  CHECK(model.quality.unmatched_device_records == unmatched);
}

}  // namespace
}  // namespace prof::analyzer
