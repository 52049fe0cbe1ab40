// The allocations alive at each moment of one process, from its allocation and free
// records in time order (windows one after another), and the bytes alive per place. The
// Memory Summary, the HTML report's memory flow and the Chrome and Perfetto exports all
// pair allocations with frees here, so they show the same numbers for one trace.
//
// The rule:
//  - An allocation at an address that is still live ends the old block first, as if its
//    free had been recorded at that moment (the free was lost, or the allocator handed the
//    address out again unseen), and then the new block is live: an address holds one block
//    at most, and no block's bytes are counted twice. Such replacements are counted.
//  - A free releases the bytes its block was allocated with, from the place it was
//    allocated in (whatever the free record says).
//  - A free of an address with no live block changes nothing; it is counted.
//  - A block's place is Host for pageable and pinned memory and records without a
//    device, else the device (MemoryPlaceOf).
//
// Not thread-safe; one tracker per process.
//
//   LiveMemory live;
//   for (const MemoryRecord* record : records_by_time) {
//     const MemoryChange change = live.Apply(*record);
//     if (change.ended) ...;  // change.ended->allocation: the block that ended
//   }
#ifndef PROF_ANALYZER_MODEL_LIVE_MEMORY_H_
#define PROF_ANALYZER_MODEL_LIVE_MEMORY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// A place holding memory: a device ordinal, or kHostPlace.
constexpr int32_t kHostPlace = -1;
int32_t MemoryPlaceOf(const MemoryRecord& record);
// "GPU<d>" or "Host".
std::string MemoryPlaceName(int32_t place);

struct LiveBlock {
  MemoryRecord allocation;
  int32_t place = kHostPlace;
};

// What one record did.
struct MemoryChange {
  bool allocated = false;       // an allocation: now live, in `place`
  bool unmatched_free = false;  // a free of an address with no live block: nothing changed
  int32_t place = kHostPlace;   // where bytes changed (a free: where its block was allocated)
  // The block the record ended: a free's block, or the block an allocation replaced at its
  // still-live address (`replaced`).
  std::optional<LiveBlock> ended;
  bool replaced = false;
};

class LiveMemory {
 public:
  MemoryChange Apply(const MemoryRecord& record);

  uint64_t LiveBytes(int32_t place) const;
  const std::map<int32_t, uint64_t>& live_bytes() const { return live_bytes_; }       // by place
  const absl::flat_hash_map<uint64_t, LiveBlock>& blocks() const { return blocks_; }  // by address
  uint64_t unmatched_frees() const { return unmatched_frees_; }
  uint64_t replaced_blocks() const { return replaced_blocks_; }
  uint64_t replaced_bytes() const { return replaced_bytes_; }

 private:
  LiveBlock End(absl::flat_hash_map<uint64_t, LiveBlock>::iterator it);

  absl::flat_hash_map<uint64_t, LiveBlock> blocks_;
  std::map<int32_t, uint64_t> live_bytes_;
  uint64_t unmatched_frees_ = 0;
  uint64_t replaced_blocks_ = 0;
  uint64_t replaced_bytes_ = 0;
};

// A window's memory records in time order; ties keep the file's order (the agent writes
// them per thread, so a file holds them in time order only per thread).
std::vector<const MemoryRecord*> MemoryRecordsByTime(const std::vector<MemoryRecord>& records);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_LIVE_MEMORY_H_
