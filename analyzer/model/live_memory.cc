#include "analyzer/model/live_memory.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace prof::analyzer {

int32_t MemoryPlaceOf(const MemoryRecord& record) {
  const bool host =
      record.kind == schema::MEMORY_KIND_PAGEABLE || record.kind == schema::MEMORY_KIND_PINNED;
  return host || record.device < 0 ? kHostPlace : record.device;
}

std::string MemoryPlaceName(int32_t place) {
  return place == kHostPlace ? std::string("Host") : absl::StrCat("GPU", place);
}

uint64_t LiveMemory::LiveBytes(int32_t place) const {
  auto it = live_bytes_.find(place);
  return it == live_bytes_.end() ? 0 : it->second;
}

LiveBlock LiveMemory::End(absl::flat_hash_map<uint64_t, LiveBlock>::iterator it) {
  LiveBlock block = std::move(it->second);
  blocks_.erase(it);
  uint64_t& bytes = live_bytes_[block.place];
  bytes -= std::min(bytes, block.allocation.bytes);
  return block;
}

MemoryChange LiveMemory::Apply(const MemoryRecord& record) {
  MemoryChange change;
  auto it = blocks_.find(record.address);
  if (!record.allocate) {
    if (it == blocks_.end()) {
      ++unmatched_frees_;
      change.unmatched_free = true;
      change.place = MemoryPlaceOf(record);
      return change;
    }
    change.ended = End(it);
    change.place = change.ended->place;
    return change;
  }
  if (it != blocks_.end()) {  // its free was lost: the old block ends here
    change.ended = End(it);
    change.replaced = true;
    ++replaced_blocks_;
    replaced_bytes_ += change.ended->allocation.bytes;
  }
  change.allocated = true;
  change.place = MemoryPlaceOf(record);
  live_bytes_[change.place] += record.bytes;
  blocks_[record.address] = LiveBlock{record, change.place};
  return change;
}

std::vector<const MemoryRecord*> MemoryRecordsByTime(const std::vector<MemoryRecord>& records) {
  std::vector<const MemoryRecord*> sorted;
  sorted.reserve(records.size());
  for (const MemoryRecord& record : records) sorted.push_back(&record);
  std::stable_sort(sorted.begin(), sorted.end(), [](const MemoryRecord* a, const MemoryRecord* b) {
    return a->time_ns < b->time_ns;
  });
  return sorted;
}

}  // namespace prof::analyzer
