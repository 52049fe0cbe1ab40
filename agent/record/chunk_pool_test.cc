#include "agent/record/chunk_pool.h"

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
