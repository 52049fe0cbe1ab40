#include "agent/record/chunk_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <set>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

TEST_CASE("the pool hands out each chunk once, until all are taken") {
  ChunkPool pool;
  pool.Configure(5 * kChunkBytes + 100);  // the remainder is not a chunk
  std::set<RecordChunk*> taken;
  while (RecordChunk* chunk = pool.Take()) CHECK(taken.insert(chunk).second);
  CHECK(taken.size() == 5);
  CHECK(pool.in_use() == 5);
  pool.Give(*taken.begin());
  CHECK(pool.Take() == *taken.begin());
  CHECK(pool.Take() == nullptr);
}

// Resident pages among chunks [first, end) of `pool`'s mapping, which starts at `base`.
size_t ResidentPages(const uint8_t* base, size_t first, size_t end) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((end - first) * kChunkBytes / page);
  REQUIRE(mincore(const_cast<uint8_t*>(base) + first * kChunkBytes, (end - first) * kChunkBytes,
                  resident.data()) == 0);
  size_t count = 0;
  for (unsigned char flags : resident) count += flags & 1;
  return count;
}

TEST_CASE("the writer makes the fresh chunks threads take next resident, twice what they took") {
  ChunkPool pool;
  pool.Configure(200 * kChunkBytes);
  const uint8_t* base = reinterpret_cast<const uint8_t*>(pool.Take());  // chunk 0
  pool.Take();                                                           // chunk 1
  const size_t per_chunk = kChunkBytes / static_cast<size_t>(sysconf(_SC_PAGESIZE));
  CHECK(ResidentPages(base, 2, 200) == 0);  // MAP_NORESERVE: nothing until first use
  pool.PrefaultFresh();
  if (!pool.prefault_supported()) return;  // a kernel before 5.14: the threads fault, as before
  CHECK(ResidentPages(base, 2, 6) == 4 * per_chunk);  // 2 taken: the next 4 chunks
  CHECK(ResidentPages(base, 6, 200) == 0);
  pool.PrefaultFresh();  // nothing taken since: nothing more
  CHECK(ResidentPages(base, 6, 200) == 0);
  for (int i = 0; i < 40; ++i) pool.Take();  // chunks 2..41
  pool.PrefaultFresh();                      // 80 asked, at most 64 ahead: 42..105
  CHECK(ResidentPages(base, 42, 106) == 64 * per_chunk);
  CHECK(ResidentPages(base, 106, 200) == 0);
  for (int i = 42; i < 190; ++i) pool.Take();  // up to chunk 189
  pool.PrefaultFresh();                        // 296 asked: only the pool's last 10 remain
  CHECK(ResidentPages(base, 190, 200) == 10 * per_chunk);
  while (pool.Take() != nullptr) {
  }
  pool.PrefaultFresh();  // the pool used up: nothing past its end
}

TEST_CASE("threads taking and giving at once never share a chunk") {
  ChunkPool pool;
  pool.Configure(16 * kChunkBytes);
  std::vector<std::thread> threads;
  std::atomic<int> shared{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, &shared, t] {
      for (int i = 0; i < 50000; ++i) {
        RecordChunk* chunk = pool.Take();
        if (!chunk) continue;
        // Whoever holds a chunk owns its first bytes: a second holder would see them change.
        uint32_t* mark = reinterpret_cast<uint32_t*>(chunk->data());
        *mark = t;
        std::this_thread::yield();
        if (*mark != static_cast<uint32_t>(t)) shared.fetch_add(1);
        pool.Give(chunk);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(shared.load() == 0);
  CHECK(pool.in_use() == 0);
  int count = 0;
  while (pool.Take()) ++count;
  CHECK(count == 16);
}

}  // namespace
}  // namespace prof
