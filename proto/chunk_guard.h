// The memory bound of reading a frame. A frame's payload is at most 64 MiB, but protobuf
// parses it into objects that can be much larger than its wire bytes: a 1-byte varint in a
// packed uint64 column becomes 8 bytes, a 2-byte empty ThreadEvents becomes a whole message
// object (~100 bytes) plus a pointer. So before a payload is parsed, ParsedBytesEstimate()
// walks its wire format (no allocation, O(payload)) and adds up what parsing would allocate:
// the in-memory size of every element, every message object and every string. The reader
// refuses, as a corrupt chunk reported in the ReadReport, a payload whose estimate exceeds
// ParsedBytesLimit(size) = min(8 x size + 64 KiB, 64 MiB).
//
// Why these numbers: 8x is the most a packed numeric column can expand (1-byte varint to
// uint64), so no well-formed column is ever refused for its ratio; only message and string
// blow-ups are. 64 MiB is over 10x what the agent's largest chunk (65536 events) parses
// into, and caps a 64 MiB frame (which 8x alone would let reach 512 MiB).
//
// Stated bound: while reading, memory is at most the frame buffer (<= 1.5 x the frame, and
// never more than the file holds plus a 1 MiB read block) plus the parsed chunk, <= 3 x
// ParsedBytesLimit (a repeated field grows by doubling, briefly holding its old and new
// arrays): per frame at most 1.5 x payload + 3 x min(8 x payload + 64 KiB, 64 MiB), so
// at most 288 MiB for the largest frame, whatever it holds (measured: a 4 MiB frame of
// 1-byte varints peaks at ~82 MiB, bound 102 MiB). TraceFileReader parses into a chunk
// that keeps the last chunks' column arrays (reusable_chunk.h), freed first when over the
// 3 x ParsedBytesLimit of the frame being read: the parsed-chunk term at most doubles
// while a frame is parsed. The model built from the events is O(events) by design.
//
// Thread-safe (no shared state but a per-thread cache of message sizes).
#ifndef PROF_PROTO_CHUNK_GUARD_H_
#define PROF_PROTO_CHUNK_GUARD_H_

#include <cstddef>
#include <cstdint>

#include "google/protobuf/descriptor.h"

namespace prof {

inline constexpr uint64_t kMaxParsedBytesPerPayloadByte = 8;
inline constexpr uint64_t kParsedBytesSlack = 64 << 10;
inline constexpr uint64_t kMaxParsedChunkBytes = 64ull << 20;

// Bytes parsing `payload` as `type` would allocate (estimated from the wire format); stops
// counting, and returns a value above `stop_above`, as soon as the sum passes it. A payload
// that is not valid wire format returns what was counted up to the damage (the parse that
// follows fails anyway).
uint64_t ParsedBytesEstimate(const google::protobuf::Descriptor* type, const uint8_t* payload,
                             size_t size, uint64_t stop_above);

// The largest estimate ParsedBytesEstimate may return for a payload of `size` bytes.
inline uint64_t ParsedBytesLimit(size_t size) {
  const uint64_t by_ratio =
      kMaxParsedBytesPerPayloadByte * static_cast<uint64_t>(size) + kParsedBytesSlack;
  return by_ratio < kMaxParsedChunkBytes ? by_ratio : kMaxParsedChunkBytes;
}

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_GUARD_H_
