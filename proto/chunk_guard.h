// The memory bound of reading a frame. A frame's payload is at most 64 MiB, but protobuf
// parses it into objects that can be much larger than its wire bytes: a 1-byte varint in a
// packed uint64 column becomes 8 bytes, a 2-byte empty ThreadEvents becomes a whole message
// object (~100 bytes) plus a pointer. So before a payload is parsed, ParsedBytesEstimate()
// walks its wire format (no allocation, O(payload)) and adds up what parsing would allocate:
// the in-memory size of every element, every message object and every string. The reader
// refuses, as a corrupt chunk reported in the ReadReport, a payload whose estimate exceeds
// kMaxParsedBytesPerPayloadByte times its size plus kParsedBytesSlack.
//
// Stated bound: while reading, memory is at most the frame buffer (the frame, plus at most
// a read block, never more than the file holds) plus the parsed chunk, which is at most
// 2 x (kMaxParsedBytesPerPayloadByte x payload + slack) (protobuf's repeated fields may
// double their capacity while growing): a 64 MiB frame parses into at most ~256 MiB of
// estimate (~512 MiB worst case with capacity doubling) instead of several GiB; a realistic
// chunk's estimate is about 2-3x its payload, far below the limit.
//
// Thread-safe (no shared state but a per-thread cache of message sizes).
#ifndef PROF_PROTO_CHUNK_GUARD_H_
#define PROF_PROTO_CHUNK_GUARD_H_

#include <cstddef>
#include <cstdint>

#include "google/protobuf/descriptor.h"

namespace prof {

inline constexpr uint64_t kMaxParsedBytesPerPayloadByte = 4;
inline constexpr uint64_t kParsedBytesSlack = 64 << 10;

// Bytes parsing `payload` as `type` would allocate (estimated from the wire format); stops
// counting, and returns a value above `stop_above`, as soon as the sum passes it. A payload
// that is not valid wire format returns what was counted up to the damage (the parse that
// follows fails anyway).
uint64_t ParsedBytesEstimate(const google::protobuf::Descriptor* type, const uint8_t* payload,
                             size_t size, uint64_t stop_above);

// The largest estimate ParsedBytesEstimate may return for a payload of `size` bytes.
inline uint64_t ParsedBytesLimit(size_t size) {
  return kMaxParsedBytesPerPayloadByte * static_cast<uint64_t>(size) + kParsedBytesSlack;
}

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_GUARD_H_
