#include "proto/framing.h"

#include <cstring>

#include "proto/crc32c.h"

namespace prof {
namespace {

void PutUint32(uint32_t value, uint8_t* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint32_t GetUint32(const uint8_t* in) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(in[i]) << (8 * i);
  return value;
}

}  // namespace

void EncodePreamble(const Preamble& preamble, uint8_t* out) {
  std::memcpy(out, kFileMagic, sizeof(kFileMagic));
  PutUint32(preamble.format_version, out + 8);
  PutUint32(Crc32c(out, 12), out + 12);
}

PreambleCheck DecodePreamble(const uint8_t* in, Preamble* preamble) {
  if (std::memcmp(in, kFileMagic, sizeof(kFileMagic)) != 0) return PreambleCheck::kBadMagic;
  if (Crc32c(in, 12) != GetUint32(in + 12)) return PreambleCheck::kBadChecksum;
  preamble->format_version = GetUint32(in + 8);
  return PreambleCheck::kValid;
}

void EncodeFrameHeader(const FrameHeader& header, uint8_t* out) {
  std::memcpy(out, kFrameMagic, sizeof(kFrameMagic));
  PutUint32(static_cast<uint32_t>(header.type), out + 4);
  PutUint32(header.payload_size, out + 8);
  PutUint32(header.payload_crc, out + 12);
  PutUint32(Crc32c(out, 16), out + 16);
}

bool DecodeFrameHeader(const uint8_t* in, FrameHeader* header) {
  if (std::memcmp(in, kFrameMagic, sizeof(kFrameMagic)) != 0) return false;
  if (Crc32c(in, 16) != GetUint32(in + 16)) return false;
  const uint32_t type = GetUint32(in + 4);
  if (type != static_cast<uint32_t>(FrameType::kFileHeader) &&
      type != static_cast<uint32_t>(FrameType::kChunk)) {
    return false;
  }
  const uint32_t size = GetUint32(in + 8);
  if (size > kMaxFramePayloadSize) return false;
  header->type = static_cast<FrameType>(type);
  header->payload_size = size;
  header->payload_crc = GetUint32(in + 12);
  return true;
}

}  // namespace prof
