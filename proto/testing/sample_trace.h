// Test support: small traces with every event kind, every optional field both present and
// absent, and awkward values (timestamps going backwards, huge ids), written through the
// real encoder and writer into memory.
#ifndef PROF_PROTO_TESTING_SAMPLE_TRACE_H_
#define PROF_PROTO_TESTING_SAMPLE_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "proto/chunk_encoder.h"
#include "proto/testing/reference_chunk_encoder.h"
#include "proto/trace.pb.h"

namespace prof::testing {

// Adds `rounds` rounds of one event of every kind to `encoder` and appends the
// description (event_strings.h) of each to `expected`. Deterministic in `seed`.
void AddEveryEventKind(ChunkEncoder* encoder, uint64_t seed, int rounds,
                       std::vector<std::string>* expected);
void AddEveryEventKind(ReferenceChunkEncoder* encoder, uint64_t seed, int rounds,
                       std::vector<std::string>* expected);

struct SampleTrace {
  std::string bytes;                                       // the whole file
  uint64_t header_end = 0;                                 // offset just past the header frame
  std::vector<uint64_t> chunk_ends;                        // offset just past each chunk frame
  std::vector<std::vector<std::string>> events_per_chunk;  // sorted descriptions
  trace::FileHeader header;
};

trace::FileHeader SampleHeader();

// A complete file of `chunks` chunks (the last one marked last) of `rounds` rounds each.
SampleTrace MakeSampleTrace(int chunks, int rounds);

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_SAMPLE_TRACE_H_
