// A per-file cache keyed by ids read from the file (string ids, kernel configuration ids).
// The ids are untrusted: a file can say 0xFFFFFFFF. Small ids live in a dense array, which
// grows only while it stays under twice the number of entries stored plus a fixed slack;
// any other id goes to a hash map. Memory is therefore O(entries), never O(largest id), and
// no arithmetic on an id can wrap (issue 16: `resize(id + 1)` on a uint32 wrapped to 0).
//
// Not thread-safe; one per ModelBuilder.
#ifndef PROF_ANALYZER_MODEL_ID_CACHE_H_
#define PROF_ANALYZER_MODEL_ID_CACHE_H_

#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"

namespace prof::analyzer {

template <typename Value>
class IdCache {
 public:
  // `empty` marks an entry not yet filled; Slot() creates entries with it.
  explicit IdCache(Value empty) : empty_(empty) {}

  // The entry of `id`, `empty` until the caller fills it. Valid until the next Slot().
  // Inline for the common case, a small id seen before while no id has gone to the map:
  // the builder asks several times per event.
  Value& Slot(uint32_t id) {
    if (id < fast_size_) return dense_[id];
    return SlotSlow(id);
  }

  // The entry of `id` when Slot() would find it in the array, else nullptr (never
  // creates one): for a caller's path that must not call out.
  Value* Peek(uint32_t id) { return id < fast_size_ ? &dense_[id] : nullptr; }

  size_t dense_size() const { return dense_.size(); }

 private:
  static constexpr uint64_t kSlack = 4096;

  ABSL_ATTRIBUTE_NOINLINE Value& SlotSlow(uint32_t id) {
    // An id that went to the map stays there, even once the array has grown past it.
    if (!sparse_.empty()) {
      auto it = sparse_.find(id);
      if (it != sparse_.end()) return it->second;
    }
    const uint64_t wide = id;  // no wrap below
    if (wide < dense_.size()) return dense_[wide];
    ++stored_;
    if (wide < kSlack + 2 * stored_) {
      dense_.resize(wide + 1, empty_);
      if (sparse_.empty()) fast_size_ = dense_.size();
      return dense_[wide];
    }
    fast_size_ = 0;  // from now on every id asks the map first
    return sparse_.try_emplace(id, empty_).first->second;
  }

  Value empty_;
  std::vector<Value> dense_;
  absl::flat_hash_map<uint32_t, Value> sparse_;
  uint64_t stored_ = 0;  // ids ever given a slot (an upper bound on the entries)
  // dense_.size() while the map is empty, else 0: Slot's one comparison for both tests.
  uint64_t fast_size_ = 0;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_ID_CACHE_H_
