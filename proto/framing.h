// The byte layout of a trace file. This header and framing.cc are the only code that
// knows it; the writer and the reader are built on these functions.
//
//   file     := preamble header_frame chunk_frame*
//   preamble := magic[8] = "\x89PROFTR\n" | format_version u32 | crc32c(first 12 bytes) u32
//   frame    := frame_magic u32 = "PRFM" | frame_type u32 | payload_size u32
//               | payload_crc u32 (crc32c of the payload)
//               | header_crc u32 (crc32c of the 16 bytes before it) | payload
// All integers little-endian. A header frame's payload is a serialized FileHeader, a
// chunk frame's a serialized Chunk (proto/trace.proto).
//
// Why this shape: a chunk is self-delimiting and checked twice (its frame header, then its
// payload), so a reader can skip a damaged chunk, search forward for the next frame magic
// and keep reading; a file cut anywhere loses only the chunk that was being written.
#ifndef PROF_PROTO_FRAMING_H_
#define PROF_PROTO_FRAMING_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// Bumped when a change would be misread by an older reader. Readers refuse files whose
// version is newer than theirs, with a message that says so.
// 2: run-length columns (trace.proto); version 1 files read as before.
inline constexpr uint32_t kFormatVersion = 2;
inline constexpr uint32_t kOldestReadableFormatVersion = 1;

inline constexpr char kFileMagic[8] = {'\x89', 'P', 'R', 'O', 'F', 'T', 'R', '\n'};
inline constexpr size_t kPreambleSize = 16;

inline constexpr char kFrameMagic[4] = {'P', 'R', 'F', 'M'};
inline constexpr size_t kFrameHeaderSize = 20;

// A writer never produces, and a reader never accepts, a larger payload; this also
// bounds the reader's memory.
inline constexpr uint32_t kMaxFramePayloadSize = 64u << 20;

enum class FrameType : uint32_t {
  kFileHeader = 1,
  kChunk = 2,
};

struct Preamble {
  uint32_t format_version = 0;
};

struct FrameHeader {
  FrameType type = FrameType::kChunk;
  uint32_t payload_size = 0;
  uint32_t payload_crc = 0;
};

// Writes exactly kPreambleSize bytes to `out`.
void EncodePreamble(const Preamble& preamble, uint8_t* out);

enum class PreambleCheck {
  kValid,
  kBadMagic,     // not a trace file, or the magic was damaged
  kBadChecksum,  // magic fine, version or checksum damaged
};

// Reads kPreambleSize bytes at `in`.
PreambleCheck DecodePreamble(const uint8_t* in, Preamble* preamble);

// Writes exactly kFrameHeaderSize bytes to `out`.
void EncodeFrameHeader(const FrameHeader& header, uint8_t* out);

// Reads kFrameHeaderSize bytes at `in`; false when the magic, the header checksum, the
// type or the size is not valid.
bool DecodeFrameHeader(const uint8_t* in, FrameHeader* header);

}  // namespace prof

#endif  // PROF_PROTO_FRAMING_H_
