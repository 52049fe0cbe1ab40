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

// The call each id links to, found the plain way: the last call with it.
int32_t LastCallWithId(const TraceModel& model, uint64_t id) {
  int32_t found = kNoIndex;
  for (size_t i = 0; i < model.api_calls.size(); ++i)
    if (id != 0 && model.api_calls[i].correlation_id == id) found = static_cast<int32_t>(i);
  return found;
}

// Ids arrive a thread's chunk at a time, not in order: the dense index widens below its
// first id and above, and every record still finds the last call with its id.
TEST_CASE("dense correlation ids out of order: the index widens both ways") {
  TraceModel model;
  for (uint64_t id = 3000; id < 3500; ++id) model.api_calls.push_back(CallWithId(id));
  for (uint64_t id = 1; id < 500; ++id) model.api_calls.push_back(CallWithId(id));  // below
  for (uint64_t id = 5200; id < 5300; ++id) model.api_calls.push_back(CallWithId(id));  // above
  model.api_calls.push_back(CallWithId(3001));  // a duplicate, after the widening: call 1099
  for (uint64_t id = 0; id < 5400; id += 7)
    model.device_activities.push_back(RecordWithId(DeviceKind::kKernel, id));
  model.device_activities.push_back(RecordWithId(DeviceKind::kKernel, 3001));
  LinkDeviceActivitiesToApiCalls(&model);
  uint64_t unmatched = 0;
  for (const DeviceActivity& activity : model.device_activities) {
    CHECK(activity.api_call == LastCallWithId(model, activity.correlation_id));
    unmatched += activity.api_call == kNoIndex;
  }
  CHECK(model.device_activities[3003 / 7].api_call == 3);
  CHECK(model.device_activities[7 / 7].api_call == 500 + 6);  // the calls below: from 500
  CHECK(model.device_activities[5208 / 7].api_call == 999 + 8);  // above: from 999
  CHECK(model.device_activities.back().api_call == 1099);
  CHECK(model.quality.duplicate_correlation_ids == 1);
  CHECK(model.quality.unmatched_device_records.at("Kernel") == unmatched);
}

// An id far from the others, read after a duplicate: the hash map takes over and counts
// that duplicate once.
TEST_CASE("an id too far for the dense index: the hash map, duplicates counted once") {
  TraceModel model;
  model.api_calls = {CallWithId(5), CallWithId(5), CallWithId(1000000000), CallWithId(6)};
  model.device_activities = {RecordWithId(DeviceKind::kKernel, 5),
                             RecordWithId(DeviceKind::kKernel, 1000000000),
                             RecordWithId(DeviceKind::kKernel, 7)};
  LinkDeviceActivitiesToApiCalls(&model);
  CHECK(model.device_activities[0].api_call == 1);
  CHECK(model.device_activities[1].api_call == 2);
  CHECK(model.device_activities[2].api_call == kNoIndex);
  CHECK(model.quality.duplicate_correlation_ids == 1);
}

}  // namespace
}  // namespace prof::analyzer
