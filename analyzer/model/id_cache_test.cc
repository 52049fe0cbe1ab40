#include "analyzer/model/id_cache.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

TEST_CASE("small ids live in the array, a far id in the map, and every entry is kept") {
  IdCache<int> cache(-1);
  CHECK(cache.Slot(3) == -1);
  cache.Slot(3) = 30;
  cache.Slot(0) = 0;
  CHECK(cache.Slot(3) == 30);
  CHECK(cache.dense_size() == 4);
  // 0xFFFFFFFF is past the slack (4096 + 2 per entry): the map holds it, the array does not
  // grow to it.
  cache.Slot(0xFFFFFFFFu) = 99;
  CHECK(cache.dense_size() == 4);
  // Once the map holds an id, small ids still find their array entries (through the slow
  // path, which asks the map first).
  CHECK(cache.Slot(3) == 30);
  CHECK(cache.Slot(0) == 0);
  CHECK(cache.Slot(0xFFFFFFFFu) == 99);
  CHECK(cache.Slot(2) == -1);
  cache.Slot(2) = 20;
  CHECK(cache.Slot(2) == 20);
  CHECK(cache.Slot(3) == 30);
}

TEST_CASE("an id that went to the map stays there once the array grows past it") {
  IdCache<int> cache(-1);
  cache.Slot(5000) = 99;  // past 4096 + 2 * 1: the map
  CHECK(cache.dense_size() == 0);
  for (uint32_t id = 0; id < 500; ++id) cache.Slot(id) = static_cast<int>(id);
  cache.Slot(5050) = 7;  // 5050 < 4096 + 2 * 502: the array, now past 5000
  REQUIRE(cache.dense_size() == 5051);
  CHECK(cache.Slot(5000) == 99);  // the map's entry, not the array's empty one
  CHECK(cache.Slot(5050) == 7);
  CHECK(cache.Slot(499) == 499);
}

}  // namespace
}  // namespace prof::analyzer
