// Trace-file bytes built by hand for tests of damaged and hostile input: frames with valid
// headers around any payload, the preamble, and runs of frame headers whose payload is
// missing. The one place tests spell the framing (proto/framing.h) out of its parts.
#ifndef PROF_PROTO_TESTING_FRAME_BYTES_H_
#define PROF_PROTO_TESTING_FRAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "proto/framing.h"

namespace prof::testing {

// A frame of `type` around `payload`, with a correct header and payload checksum.
std::string FrameBytes(FrameType type, const std::string& payload);

// A valid preamble of the current format version.
std::string PreambleBytes();

// As many whole chunk-frame headers as fit in `bytes`, each claiming `claimed_payload` bytes
// (with checksum `payload_crc`) that do not follow.
std::string FakeFrameHeaders(size_t bytes, uint32_t claimed_payload, uint32_t payload_crc);

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_FRAME_BYTES_H_
