#include "proto/reusable_chunk.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

constexpr uint64_t kNoBound = ~uint64_t{0};

// A chunk of one thread whose api_calls block has `rows` rows (none: no block), a status
// sparse column when `with_status`, and a ranges block when `with_ranges`; plus one stream
// with kernels.
trace::Chunk MakeChunk(uint64_t sequence, int rows, bool with_status, bool with_ranges) {
  trace::Chunk chunk;
  chunk.set_sequence(sequence);
  trace::ThreadEvents* thread = chunk.add_threads();
  thread->set_thread_id(100 + sequence);
  trace::ApiCalls* calls = rows > 0 ? thread->mutable_api_calls() : nullptr;
  for (int row = 0; row < rows; ++row) {
    calls->add_start_delta_ns(row + 1);
    calls->add_duration_ns(2 * row);
    calls->add_name_id(7);
    calls->add_correlation_id_delta(1);
  }
  if (calls != nullptr && with_status) {
    calls->mutable_status()->add_index_delta(0);
    calls->mutable_status()->add_value(3);
  }
  if (with_ranges) {
    thread->mutable_ranges()->add_start_delta_ns(5);
    thread->mutable_ranges()->add_duration_ns(6);
  }
  trace::StreamEvents* stream = chunk.add_streams();
  stream->set_stream(9);
  stream->mutable_kernels()->add_start_delta_ns(sequence);
  return chunk;
}

// Parses `expected`'s bytes into `reused` and checks it reads as a fresh message would.
void ParseAndCompare(const trace::Chunk& expected, trace::Chunk* reused) {
  const std::string bytes = expected.SerializeAsString();
  REQUIRE(ParseChunkKeepingCapacity(reinterpret_cast<const uint8_t*>(bytes.data()),
                                    static_cast<int>(bytes.size()), kNoBound, reused));
  trace::Chunk fresh;
  REQUIRE(fresh.ParseFromString(bytes));
  CHECK(reused->ShortDebugString() == fresh.ShortDebugString());
}

TEST_CASE("chunks parsed into one message read as freshly parsed ones") {
  trace::Chunk reused;
  // Blocks and sparse columns come and go, threads and streams grow and shrink.
  ParseAndCompare(MakeChunk(1, 50, true, true), &reused);
  ParseAndCompare(MakeChunk(2, 3, false, false), &reused);
  CHECK_FALSE(reused.threads(0).has_ranges());
  CHECK_FALSE(reused.threads(0).api_calls().has_status());
  ParseAndCompare(MakeChunk(3, 0, false, true), &reused);
  CHECK_FALSE(reused.threads(0).has_api_calls());
  trace::Chunk two_threads = MakeChunk(4, 10, true, false);
  *two_threads.add_threads() = MakeChunk(5, 4, false, true).threads(0);
  two_threads.add_streams();
  ParseAndCompare(two_threads, &reused);
  ParseAndCompare(MakeChunk(6, 8, true, true), &reused);
  ParseAndCompare(trace::Chunk(), &reused);
  ParseAndCompare(MakeChunk(7, 8, false, true), &reused);
}

TEST_CASE("a column's array survives into the next chunk") {
  trace::Chunk reused;
  ParseAndCompare(MakeChunk(1, 1000, true, false), &reused);
  const int64_t* array = reused.threads(0).api_calls().start_delta_ns().data();
  ParseAndCompare(MakeChunk(2, 900, true, false), &reused);
  // ParseFromArray would have deleted the block and grown a new array from empty.
  CHECK(reused.threads(0).api_calls().start_delta_ns().data() == array);
  CHECK(reused.threads(0).api_calls().start_delta_ns_size() == 900);
}

TEST_CASE("what earlier chunks left is freed once it passes the bound") {
  // A hostile file could fill another thread's block in every chunk: each kept array
  // would stay, and the memory held would grow chunk after chunk.
  trace::Chunk reused;
  ParseAndCompare(MakeChunk(1, 100000, false, false), &reused);
  const uint64_t held = reused.SpaceUsedLong();
  REQUIRE(held > 800000);  // 100000 rows of four columns
  const std::string small = MakeChunk(2, 10, false, false).SerializeAsString();
  REQUIRE(ParseChunkKeepingCapacity(reinterpret_cast<const uint8_t*>(small.data()),
                                    static_cast<int>(small.size()), held - 1, &reused));
  CHECK(reused.SpaceUsedLong() < 10000);
  CHECK(reused.threads(0).api_calls().start_delta_ns_size() == 10);
}

TEST_CASE("an empty block on the wire reads as absent") {
  trace::Chunk with_empty_block = MakeChunk(1, 2, false, false);
  with_empty_block.mutable_threads(0)->mutable_steps();  // present, no rows
  const std::string bytes = with_empty_block.SerializeAsString();
  trace::Chunk reused;
  REQUIRE(ParseChunkKeepingCapacity(reinterpret_cast<const uint8_t*>(bytes.data()),
                                    static_cast<int>(bytes.size()), kNoBound, &reused));
  CHECK_FALSE(reused.threads(0).has_steps());
  CHECK(reused.threads(0).api_calls().start_delta_ns_size() == 2);
}

TEST_CASE("bytes that are not a chunk do not parse") {
  const std::string garbage = "\xff\xff\xff\xff";
  trace::Chunk reused = MakeChunk(1, 2, false, false);
  CHECK_FALSE(ParseChunkKeepingCapacity(reinterpret_cast<const uint8_t*>(garbage.data()),
                                        static_cast<int>(garbage.size()), kNoBound, &reused));
}

}  // namespace
}  // namespace prof
