#include "proto/testing/frame_bytes.h"

#include "proto/crc32c.h"

namespace prof::testing {

std::string FrameBytes(FrameType type, const std::string& payload) {
  FrameHeader header;
  header.type = type;
  header.payload_size = static_cast<uint32_t>(payload.size());
  header.payload_crc = Crc32c(payload.data(), payload.size());
  std::string frame(kFrameHeaderSize, '\0');
  EncodeFrameHeader(header, reinterpret_cast<uint8_t*>(frame.data()));
  return frame + payload;
}

std::string PreambleBytes() {
  std::string bytes(kPreambleSize, '\0');
  EncodePreamble(Preamble{kFormatVersion}, reinterpret_cast<uint8_t*>(bytes.data()));
  return bytes;
}

std::string FakeFrameHeaders(size_t bytes, uint32_t claimed_payload, uint32_t payload_crc) {
  FrameHeader header;
  header.type = FrameType::kChunk;
  header.payload_size = claimed_payload;
  header.payload_crc = payload_crc;
  std::string one(kFrameHeaderSize, '\0');
  EncodeFrameHeader(header, reinterpret_cast<uint8_t*>(one.data()));
  std::string all;
  all.reserve(bytes);
  while (all.size() + one.size() <= bytes) all += one;
  return all;
}

}  // namespace prof::testing
