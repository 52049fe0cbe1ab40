// Parses chunk after chunk into one trace::Chunk so that its column arrays keep their
// capacity. Message::ParseFromArray clears first, and a proto3 Clear() deletes every block
// message (ApiCalls, Kernels, ...), so each chunk's packed columns grew again from empty:
// the doubling copies were a few percent of an analysis (issue 22).
//
// The result equals what ParseFromArray gives, with one exception: a block (or a sparse
// column) that is on the wire but empty reads as absent. Nothing is lost: an empty block
// holds no rows, and the decoder reads an absent sparse column as an empty one.
#ifndef PROF_PROTO_REUSABLE_CHUNK_H_
#define PROF_PROTO_REUSABLE_CHUNK_H_

#include <cstdint>

#include "proto/trace.pb.h"

namespace prof {

// Replaces `chunk` with the chunk in `payload`; false when it does not parse (`chunk` is
// then partly filled, as after a failed ParseFromArray). When what `chunk` holds (kept
// arrays and spare elements included) is over `keep_at_most` bytes, it is all freed first:
// otherwise a hostile file that fills another thread's block in every chunk would make the
// kept arrays add up chunk after chunk.
bool ParseChunkKeepingCapacity(const uint8_t* payload, int size, uint64_t keep_at_most,
                               trace::Chunk* chunk);

}  // namespace prof

#endif  // PROF_PROTO_REUSABLE_CHUNK_H_
