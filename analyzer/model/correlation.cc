#include "analyzer/model/correlation.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace prof::analyzer {
namespace {

// CUPTI hands out correlation ids densely from 1, so a plain array indexed by id (4 bytes
// per id) is far smaller and faster than a hash map (~32 bytes per call). The array is
// built in one walk over the calls, grown to cover each id outside it, as long as the ids
// span at most 4 slots per call; past that, the hash map below. (Finding the ids' range
// first took a walk of its own over the 80-byte calls: a third of the linking.)
class CorrelationIndex {
 public:
  explicit CorrelationIndex(const std::vector<ApiCall>& calls) {
    dense_ = IndexDense(calls);
    if (dense_) return;
    first_ = 0;
    call_of_id_ = {};
    duplicates_ = 0;
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].correlation_id != 0)
        InsertSparse(calls[i].correlation_id, static_cast<int32_t>(i));
    }
  }

  // Sets each record's call (kNoIndex when none) and counts, by DeviceKind, the records
  // left without one: one walk over the records, the dense case's test hoisted out of it.
  // `visit(record)` is called with each record in the same walk.
  template <typename Visit>
  void Link(std::vector<DeviceActivity>* activities, uint64_t unmatched[4], Visit visit) const {
    if (!dense_) {
      for (DeviceActivity& activity : *activities) {
        activity.api_call = FindSparse(activity.correlation_id);
        unmatched[static_cast<int>(activity.kind)] += activity.api_call == kNoIndex;
        visit(activity);
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
      visit(activity);
    }
    for (int kind = 0; kind < 4; ++kind) unmatched[kind] += counts[kind];
  }

  uint64_t duplicates() const { return duplicates_; }

 private:
  // When two calls share an id the later one wins. False when the ids span too many slots
  // (then the index is left half built).
  bool IndexDense(const std::vector<ApiCall>& calls) {
    const uint64_t most_slots = 4 * uint64_t{calls.size()} + 1024;
    uint64_t duplicates = 0;
    // The array in locals, read again only after a widening: kept in the members, they
    // were loaded again for every call.
    uint64_t first = first_, size = 0;
    int32_t* call_of_offset = nullptr;
    for (size_t i = 0; i < calls.size(); ++i) {
      const uint64_t id = calls[i].correlation_id;
      if (id == 0) continue;  // calls that launch nothing carry no id
      if (id - first >= size) {
        if (!Cover(id, most_slots, calls.size())) return false;
        first = first_;
        size = call_of_id_.size();
        call_of_offset = call_of_id_.data();
      }
      int32_t& slot = call_of_offset[id - first];
      duplicates += slot != kNoIndex;
      slot = static_cast<int32_t>(i);
    }
    duplicates_ = duplicates;
    return true;  // an empty array (no call with an id) finds no call, as it should
  }

  // Widens the array to hold `id` within `most_slots`: the first id gets a slot per call
  // (dense ids need no more), an eighth of them below it for calls of threads written
  // later; then each widening at least doubles it, rising ids keeping its start.
  bool Cover(uint64_t id, uint64_t most_slots, uint64_t calls) {
    const uint64_t size = call_of_id_.size();
    const uint64_t low = size == 0 ? id : std::min(first_, id);
    const uint64_t high = size == 0 ? id : std::max(first_ + size - 1, id);
    if (high - low >= most_slots) return false;
    const uint64_t at_least = size == 0 ? calls + 1024 : 2 * size + 1024;
    const uint64_t slots = std::min(most_slots, std::max(high - low + 1, at_least));
    const uint64_t spare = slots - (high - low + 1);
    const uint64_t below = size == 0 ? spare / 8 : id > first_ ? 0 : spare;
    const uint64_t first = low - std::min(below, low - 1);  // ids start at 1
    std::vector<int32_t> wider(slots, kNoIndex);
    if (size != 0)
      std::copy(call_of_id_.begin(), call_of_id_.end(), wider.begin() + (first_ - first));
    call_of_id_.swap(wider);
    first_ = first;
    return true;
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

// Links the records, calling `visit(record)` with each in the same walk.
template <typename Visit>
void LinkAndVisit(TraceModel* model, Visit visit) {
  const CorrelationIndex index(model->api_calls);
  model->quality.duplicate_correlation_ids = index.duplicates();
  uint64_t unmatched[4] = {0, 0, 0, 0};  // by DeviceKind
  index.Link(&model->device_activities, unmatched, visit);
  SetUnmatchedDeviceRecords(unmatched, &model->quality);
}

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
  LinkAndVisit(model, [](const DeviceActivity&) {});
}

void LinkDeviceActivitiesToApiCalls(TraceModel* model, StreamLatestStarts* latest,
                                    uint64_t* latest_answered) {
  latest->clear();
  // The answered call with the largest correlation id (CUPTI numbers calls as they start):
  // the walk compares ids it holds, and reads one call at the end.
  uint64_t answered_id = 0;
  int32_t answered = kNoIndex;
  // A record's stream is usually the previous record's: the map is probed only when it
  // changes (a probe per record was 1 % of the summary). `slot` is fetched again after
  // any insertion, which only a change of stream makes.
  uint64_t* slot = nullptr;
  uint64_t key = 0;
  LinkAndVisit(model, [&](const DeviceActivity& activity) {
    const uint64_t stream = (uint64_t{activity.device} << 32) | activity.stream;
    if (slot == nullptr || stream != key) {
      key = stream;
      slot = &(*latest)[key];
    }
    *slot = std::max(*slot, activity.start_ns);
    if (activity.api_call != kNoIndex && activity.correlation_id > answered_id) {
      answered_id = activity.correlation_id;
      answered = activity.api_call;
    }
  });
  *latest_answered = answered != kNoIndex ? model->api_calls[answered].start_ns : 0;
}

}  // namespace prof::analyzer
