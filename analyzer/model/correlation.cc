#include "analyzer/model/correlation.h"

#include "absl/container/flat_hash_map.h"

namespace prof::analyzer {

void LinkDeviceActivitiesToApiCalls(TraceModel* model) {
  absl::flat_hash_map<uint64_t, int32_t> call_of_correlation;
  call_of_correlation.reserve(model->api_calls.size());
  uint64_t duplicates = 0;
  for (size_t i = 0; i < model->api_calls.size(); ++i) {
    const uint64_t id = model->api_calls[i].correlation_id;
    if (id == 0) continue;  // calls that launch nothing carry no id
    auto [it, inserted] = call_of_correlation.try_emplace(id, static_cast<int32_t>(i));
    if (!inserted) {
      it->second = static_cast<int32_t>(i);
      ++duplicates;
    }
  }
  DataQuality& quality = model->quality;
  quality.duplicate_correlation_ids = duplicates;
  quality.unmatched_device_records.clear();
  for (DeviceActivity& activity : model->device_activities) {
    auto it = call_of_correlation.find(activity.correlation_id);
    if (activity.correlation_id != 0 && it != call_of_correlation.end()) {
      activity.api_call = it->second;
    } else {
      activity.api_call = kNoIndex;
      ++quality.unmatched_device_records[DeviceKindName(activity.kind)];
    }
  }
}

}  // namespace prof::analyzer
