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
      IndexDense(calls);
      return;
    }
    sparse_.reserve(with_id);
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].correlation_id != 0) InsertSparse(calls[i].correlation_id, static_cast<int32_t>(i));
    }
  }

  // Sets each record's call (kNoIndex when none) and counts, by DeviceKind, the records
  // left without one: one walk over the records, the dense case's test hoisted out of it.
  void Link(std::vector<DeviceActivity>* activities, uint64_t unmatched[4]) const {
    if (!dense_) {
      for (DeviceActivity& activity : *activities) {
        activity.api_call = FindSparse(activity.correlation_id);
        unmatched[static_cast<int>(activity.kind)] += activity.api_call == kNoIndex;
      }
      return;
    }
    uint64_t counts[4] = {0, 0, 0, 0};  // a local array: its stores alias no record
    // first_ >= 1 (id 0 is never indexed), so id 0 and ids below first_ wrap to an offset
    // past the end: one comparison rejects them all.
    const uint64_t first = first_, size = call_of_id_.size();
    const int32_t* call_of_offset = call_of_id_.data();
    for (DeviceActivity& activity : *activities) {
      const uint64_t offset = activity.correlation_id - first;
      const int32_t call = offset < size ? call_of_offset[offset] : kNoIndex;
      activity.api_call = call;
      counts[static_cast<int>(activity.kind)] += call == kNoIndex;
    }
    for (int kind = 0; kind < 4; ++kind) unmatched[kind] += counts[kind];
  }

  uint64_t duplicates() const { return duplicates_; }

 private:
  // When two calls share an id the later one wins.
  void IndexDense(const std::vector<ApiCall>& calls) {
    const uint64_t first = first_;
    int32_t* call_of_offset = call_of_id_.data();
    uint64_t duplicates = 0;
    for (size_t i = 0; i < calls.size(); ++i) {
      const uint64_t id = calls[i].correlation_id;
      if (id == 0) continue;  // calls that launch nothing carry no id
      int32_t& slot = call_of_offset[id - first];
      duplicates += slot != kNoIndex;
      slot = static_cast<int32_t>(i);
    }
    duplicates_ += duplicates;
  }

  void InsertSparse(uint64_t id, int32_t call) {
    int32_t& slot = sparse_.try_emplace(id, kNoIndex).first->second;
    duplicates_ += slot != kNoIndex;
    slot = call;
  }

  int32_t FindSparse(uint64_t id) const {
    if (id == 0) return kNoIndex;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? kNoIndex : it->second;
  }

  bool dense_ = false;
  uint64_t first_ = 0;
  std::vector<int32_t> call_of_id_;
  absl::flat_hash_map<uint64_t, int32_t> sparse_;
  uint64_t duplicates_ = 0;
};

}  // namespace

// The map is keyed by kind name; kinds without unmatched records get no entry.
void SetUnmatchedDeviceRecords(const uint64_t unmatched[4], DataQuality* quality) {
  quality->unmatched_device_records.clear();
  for (int kind = 0; kind < 4; ++kind) {
    if (unmatched[kind])
      quality->unmatched_device_records[DeviceKindName(static_cast<DeviceKind>(kind))] =
          unmatched[kind];
  }
}

void LinkDeviceActivitiesToApiCalls(TraceModel* model) {
  const CorrelationIndex index(model->api_calls);
  model->quality.duplicate_correlation_ids = index.duplicates();
  uint64_t unmatched[4] = {0, 0, 0, 0};  // by DeviceKind
  index.Link(&model->device_activities, unmatched);
  SetUnmatchedDeviceRecords(unmatched, &model->quality);
}

void CountUnmatchedDeviceRecords(TraceModel* model) {
  uint64_t unmatched[4] = {0, 0, 0, 0};  // by DeviceKind
  for (const DeviceActivity& activity : model->device_activities)
    unmatched[static_cast<int>(activity.kind)] += activity.api_call == kNoIndex;
  SetUnmatchedDeviceRecords(unmatched, &model->quality);
}

}  // namespace prof::analyzer
