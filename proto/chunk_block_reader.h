// Reads a chunk's thread and stream blocks (trace.proto's ThreadEvents and StreamEvents,
// nearly all of a chunk's bytes) with our own wire reader (wire_format.h) instead of
// libprotobuf's parser: a packed column's values are counted first, so its array grows
// once and each value is written without a capacity check (libprotobuf's packed-varint
// parse was 83M of 691M instructions on a 1M-event file, issue 22). The chunk's other
// fields (definitions, losses, process, ...: few and small) still go through libprotobuf.
//
// It reads only the shapes the encoder writes (every column packed, no unknown field, no
// group, no overlong varint); anything else, malformed or merely unusual, makes it give
// up, and the caller parses the chunk with libprotobuf (ParseChunkKeepingCapacity), which
// decides. So a chunk reads the same either way, and is rejected the same way.
#ifndef PROF_PROTO_CHUNK_BLOCK_READER_H_
#define PROF_PROTO_CHUNK_BLOCK_READER_H_

#include <cstddef>
#include <cstdint>

#include "proto/trace.pb.h"

namespace prof {

// Merges the chunk in payload[0, size) into `chunk`, as MergeFromArray would. False when it
// gave up (see above): `chunk` is then partly filled and must be cleared before libprotobuf
// parses the payload.
bool MergeChunkReadingBlocks(const uint8_t* payload, size_t size, trace::Chunk* chunk);

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_BLOCK_READER_H_
