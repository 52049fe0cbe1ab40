#include "analyzer/model/correlation.h"

#include <algorithm>
#include <limits>

#include "absl/container/flat_hash_map.h"

namespace prof::analyzer {
namespace {

// CUPTI hands out correlation ids densely from 1, so a plain array indexed by id (4 bytes
// per id) is far smaller and faster than a hash map (~32 bytes per call). Used when the
// ids span at most 4 slots per call; otherwise the hash map below.
class CorrelationIndex {
 public:
  explicit CorrelationIndex(const std::vector<ApiCall>& calls) {
    uint64_t first = std::numeric_limits<uint64_t>::max(), last = 0, with_id = 0;
    for (const ApiCall& call : calls) {
      if (call.correlation_id == 0) continue;  // calls that launch nothing carry no id
      first = std::min(first, call.correlation_id);
      last = std::max(last, call.correlation_id);
      ++with_id;
    }
    dense_ = with_id > 0 && last - first < 4 * with_id + 1024;
    if (dense_) {
      first_ = first;
      call_of_id_.assign(last - first + 1, kNoIndex);
    } else {
      sparse_.reserve(with_id);
    }
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].correlation_id != 0) Insert(calls[i].correlation_id, static_cast<int32_t>(i));
    }
  }

  int32_t Find(uint64_t id) const {
    if (id == 0) return kNoIndex;
    if (dense_)
      return id >= first_ && id - first_ < call_of_id_.size() ? call_of_id_[id - first_] : kNoIndex;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? kNoIndex : it->second;
  }

  uint64_t duplicates() const { return duplicates_; }

 private:
  // When two calls share an id the later one wins.
  void Insert(uint64_t id, int32_t call) {
    int32_t& slot =
        dense_ ? call_of_id_[id - first_] : sparse_.try_emplace(id, kNoIndex).first->second;
    duplicates_ += slot != kNoIndex;
    slot = call;
  }

  bool dense_ = false;
  uint64_t first_ = 0;
  std::vector<int32_t> call_of_id_;
  absl::flat_hash_map<uint64_t, int32_t> sparse_;
  uint64_t duplicates_ = 0;
};

}  // namespace

void LinkDeviceActivitiesToApiCalls(TraceModel* model) {
  const CorrelationIndex index(model->api_calls);
  model->quality.duplicate_correlation_ids = index.duplicates();
  for (DeviceActivity& activity : model->device_activities)
    activity.api_call = index.Find(activity.correlation_id);
  CountUnmatchedDeviceRecords(model);
}

void CountUnmatchedDeviceRecords(TraceModel* model) {
  DataQuality& quality = model->quality;
  quality.unmatched_device_records.clear();
  uint64_t unmatched[4] = {0, 0, 0, 0};  // by DeviceKind; the map is keyed by name
  for (const DeviceActivity& activity : model->device_activities)
    unmatched[static_cast<int>(activity.kind)] += activity.api_call == kNoIndex;
  for (int kind = 0; kind < 4; ++kind) {
    if (unmatched[kind])
      quality.unmatched_device_records[DeviceKindName(static_cast<DeviceKind>(kind))] =
          unmatched[kind];
  }
}

}  // namespace prof::analyzer
