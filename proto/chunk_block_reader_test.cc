// Our reader of a chunk's blocks against libprotobuf's parse of the same bytes: the
// encoder's own chunks (which it must read whole, not hand back), every cut and many
// flipped bytes of one (the same acceptance, the same message, the same decoded events and
// malformed counts), and shapes it leaves to libprotobuf.
#include "proto/chunk_block_reader.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <google/protobuf/util/message_differencer.h>

#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/reusable_chunk.h"
#include "proto/testing/event_strings.h"
#include "proto/testing/sample_trace.h"

namespace prof {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr uint64_t kNoBound = ~uint64_t{0};

const uint8_t* Bytes(const std::string& bytes) {
  return reinterpret_cast<const uint8_t*>(bytes.data());
}

// A chunk of `rounds` rounds of every event kind, as the encoder writes it.
std::string EncodedChunk(uint64_t seed, int rounds) {
  ChunkEncoder encoder;
  std::vector<std::string> expected;
  testing::AddEveryEventKind(&encoder, seed, rounds, &expected);
  return std::string(encoder.Finish(true));
}

struct Decoded {
  std::vector<std::string> events;
  ChunkDecodeStats stats;
};

Decoded Decode(const trace::Chunk& chunk) {
  testing::RecordingSink sink;
  Decoded decoded;
  decoded.stats = DecodeChunk(chunk, &sink);
  decoded.events = sink.events;
  return decoded;
}

void CheckSameDecoding(const trace::Chunk& ours, const trace::Chunk& reference) {
  const Decoded a = Decode(ours);
  const Decoded b = Decode(reference);
  CHECK(a.events == b.events);
  CHECK(a.stats.events == b.stats.events);
  CHECK(a.stats.malformed_blocks == b.stats.malformed_blocks);
  CHECK(a.stats.malformed_columns == b.stats.malformed_columns);
  CHECK(a.stats.first_problem == b.stats.first_problem);
}

// Reads `bytes` both ways. Returns whether our reader took the chunk by itself; when it did,
// libprotobuf must accept it too, into an equal message. `reused` is parsed as the file
// reader does (ParseChunkKeepingCapacity, chunk after chunk) and must accept exactly what
// libprotobuf accepts, and decode to the same events.
bool ReadBothWays(const std::string& bytes, trace::Chunk* reused) {
  trace::Chunk reference;
  const bool accepted = reference.ParseFromString(bytes);
  trace::Chunk ours;
  const bool took = MergeChunkReadingBlocks(Bytes(bytes), bytes.size(), &ours);
  if (took) {
    REQUIRE(accepted);
    CHECK(MessageDifferencer::Equals(ours, reference));
  }
  REQUIRE(ParseChunkKeepingCapacity(Bytes(bytes), static_cast<int>(bytes.size()), kNoBound,
                                    reused) == accepted);
  if (accepted) CheckSameDecoding(*reused, reference);
  return took;
}

TEST_CASE("the encoder's chunks are read by our reader whole, as libprotobuf reads them") {
  trace::Chunk reused;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (int rounds : {1, 7, 60}) {
      const std::string bytes = EncodedChunk(seed, rounds);
      CHECK(ReadBothWays(bytes, &reused));
      // Decoded events come out as many as written (not an empty equal-to-empty check).
      CHECK(Decode(reused).stats.events > 0);
    }
  }
}

TEST_CASE("every cut of a chunk is accepted or rejected as libprotobuf does") {
  const std::string bytes = EncodedChunk(5, 3);
  trace::Chunk reused;
  int taken = 0;
  for (size_t size = 0; size <= bytes.size(); ++size) {
    taken += ReadBothWays(bytes.substr(0, size), &reused);
  }
  CHECK(taken > 0);  // cuts between fields: our reader takes them
  CHECK(taken < static_cast<int>(bytes.size()));
}

TEST_CASE("flipped bytes in a chunk are read or rejected as libprotobuf does") {
  const std::string bytes = EncodedChunk(6, 3);
  trace::Chunk reused;
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (const uint8_t mask : {0x01, 0x08, 0x80, 0xff}) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ mask);
      ReadBothWays(flipped, &reused);
    }
  }
}

// A chunk of one thread whose api_calls block has the given body bytes.
std::string ChunkWithApiCallsBody(const std::string& body) {
  const std::string thread = std::string("\x1a") + static_cast<char>(body.size()) + body;
  return std::string("\x2a") + static_cast<char>(thread.size()) + thread;
}

TEST_CASE("shapes the encoder never writes are left to libprotobuf, which reads them") {
  trace::Chunk reused;
  // start_delta_ns (sint64, field 1) unpacked: tag 0x08, zigzag(-2) = 3; then packed.
  CHECK_FALSE(ReadBothWays(ChunkWithApiCallsBody("\x08\x03\x0a\x01\x04"), &reused));
  CHECK(reused.threads(0).api_calls().start_delta_ns_size() == 2);
  CHECK(reused.threads(0).api_calls().start_delta_ns(0) == -2);
  // An unknown field (number 15, varint) in the block.
  CHECK_FALSE(ReadBothWays(ChunkWithApiCallsBody("\x0a\x01\x04\x78\x05"), &reused));
  // An eleven-byte varint in a packed column: rejected by both.
  CHECK_FALSE(ReadBothWays(
      ChunkWithApiCallsBody("\x12\x0b\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), &reused));
  // The same column twice: appended to, by our reader too.
  CHECK(ReadBothWays(ChunkWithApiCallsBody("\x0a\x01\x04\x0a\x02\x06\x08"), &reused));
  CHECK(reused.threads(0).api_calls().start_delta_ns_size() == 3);
  CHECK(reused.threads(0).api_calls().start_delta_ns(2) == 4);
}

TEST_CASE("the chunk's other fields, between and around its blocks, read as libprotobuf's") {
  trace::Chunk chunk;
  chunk.set_sequence(9);
  chunk.add_strings("a");
  chunk.add_threads()->set_thread_id(4);
  chunk.mutable_process()->set_name_id(3);
  const std::string head = chunk.SerializeAsString();
  // Strings after the threads, and a second sequence (the last one wins).
  trace::Chunk tail;
  tail.add_strings("b");
  tail.set_sequence(11);
  tail.add_streams()->set_stream(2);
  const std::string bytes = head + tail.SerializeAsString() + head;
  trace::Chunk reused;
  CHECK(ReadBothWays(bytes, &reused));
  CHECK(reused.strings_size() == 3);
  CHECK(reused.sequence() == 9);
  CHECK(reused.threads_size() == 2);
}

}  // namespace
}  // namespace prof
