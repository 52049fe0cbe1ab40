// The one pairing rule of model/live_memory.h, case by case, with live bytes worked out by
// hand.
#include "analyzer/model/live_memory.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

MemoryRecord Record(uint64_t address, uint64_t bytes, bool allocate, int32_t device = 0,
                    schema::MemoryKind kind = schema::MEMORY_KIND_DEVICE) {
  MemoryRecord record;
  record.address = address;
  record.bytes = bytes;
  record.allocate = allocate;
  record.device = device;
  record.kind = kind;
  return record;
}

TEST_CASE("an allocation and its free") {
  LiveMemory live;
  CHECK(live.Apply(Record(0x10, 100, true)).allocated);
  CHECK(live.LiveBytes(0) == 100);
  const MemoryChange freed = live.Apply(Record(0x10, 0, false));
  REQUIRE(freed.ended);
  CHECK(freed.ended->allocation.bytes == 100);
  CHECK(!freed.replaced);
  CHECK(live.LiveBytes(0) == 0);
  CHECK(live.blocks().empty());
}

TEST_CASE("an allocation at a still-live address ends the old block first") {
  LiveMemory live;
  live.Apply(Record(0x10, 100, true));
  const MemoryChange again = live.Apply(Record(0x10, 60, true));
  CHECK(again.allocated);
  CHECK(again.replaced);
  REQUIRE(again.ended);
  CHECK(again.ended->allocation.bytes == 100);
  CHECK(live.LiveBytes(0) == 60);  // not 160
  CHECK(live.replaced_blocks() == 1);
  CHECK(live.replaced_bytes() == 100);
  live.Apply(Record(0x10, 0, false));
  CHECK(live.LiveBytes(0) == 0);
}

TEST_CASE("a free with no live block changes nothing and is counted") {
  LiveMemory live;
  live.Apply(Record(0x10, 100, true));
  const MemoryChange stray = live.Apply(Record(0x20, 0, false));
  CHECK(stray.unmatched_free);
  CHECK(!stray.ended);
  CHECK(live.unmatched_frees() == 1);
  CHECK(live.LiveBytes(0) == 100);
}

TEST_CASE("a free releases from the place its block was allocated in") {
  LiveMemory live;
  live.Apply(Record(0x10, 100, true, 1));
  const MemoryChange freed = live.Apply(Record(0x10, 0, false, -1));  // the free names no device
  CHECK(freed.place == 1);
  CHECK(live.LiveBytes(1) == 0);
  CHECK(live.LiveBytes(kHostPlace) == 0);
}

TEST_CASE("pinned and pageable memory is the host's, whatever the device") {
  CHECK(MemoryPlaceOf(Record(1, 1, true, 0, schema::MEMORY_KIND_PINNED)) == kHostPlace);
  CHECK(MemoryPlaceOf(Record(1, 1, true, 2, schema::MEMORY_KIND_PAGEABLE)) == kHostPlace);
  CHECK(MemoryPlaceOf(Record(1, 1, true, 3, schema::MEMORY_KIND_MANAGED)) == 3);
  CHECK(MemoryPlaceOf(Record(1, 1, true, -1)) == kHostPlace);
  CHECK(MemoryPlaceName(3) == "GPU3");
  CHECK(MemoryPlaceName(kHostPlace) == "Host");
}

}  // namespace
}  // namespace prof::analyzer
