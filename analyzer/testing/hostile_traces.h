// Test support: CRC-valid trace files crafted to attack the reader and the analyzer (issue
// 16): ids that overflow or allocate gigabytes, enum values the schema does not define, fake
// frame headers, frames that expand when parsed. Their checksums are right, so every case
// reaches the code after the framing. make_hostile_traces writes them into
// analyzer/testdata/hostile/, where hostile_input_test reads them.
#ifndef PROF_ANALYZER_TESTING_HOSTILE_TRACES_H_
#define PROF_ANALYZER_TESTING_HOSTILE_TRACES_H_

#include <cstddef>
#include <string>
#include <vector>

#include "proto/trace.pb.h"

namespace prof::analyzer::testing {

struct HostileTrace {
  std::string name;   // file name, e.g. "name_id_ffffffff.pb"
  std::string bytes;  // the whole file
  bool readable;      // profanalyze should read something (exit 0) rather than refuse (exit 1)
};

std::vector<HostileTrace> HostileTraces();

// A valid preamble and header frame, then `chunks` as chunk frames (checksums computed).
std::string FramedFile(const std::vector<trace::Chunk>& chunks);
// A chunk frame around arbitrary payload bytes (valid checksums).
std::string ChunkFrame(const std::string& payload);
// `bytes` worth of 20-byte frame headers, each valid but claiming a payload of
// `claimed_payload` bytes that is not there.
std::string FakeFrameHeaders(size_t bytes, uint32_t claimed_payload);
// The payload of a chunk holding `count` empty ThreadEvents: 2 bytes on the wire each, a
// whole message object each once parsed.
std::string EmptyThreadsPayload(size_t count);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_HOSTILE_TRACES_H_
