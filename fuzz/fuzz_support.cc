#include "fuzz/fuzz_support.h"

#include <cstdlib>
#include <cstring>

#include "proto/crc32c.h"
#include "proto/framing.h"

namespace prof::fuzz {
namespace {

void PutUint32(uint32_t value, char* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(value >> (8 * i));
}

uint32_t GetUint32(const char* in) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i)
    value |= static_cast<uint32_t>(static_cast<uint8_t>(in[i])) << (8 * i);
  return value;
}

}  // namespace

void RecomputeChecksums(std::string* file) {
  if (file->size() < kPreambleSize) return;
  char* bytes = file->data();
  PutUint32(Crc32c(bytes, 12), bytes + 12);
  size_t at = kPreambleSize;
  while (at + kFrameHeaderSize <= file->size()) {
    if (std::memcmp(bytes + at, kFrameMagic, sizeof(kFrameMagic)) != 0) {
      ++at;
      continue;
    }
    const uint64_t size = GetUint32(bytes + at + 8);
    if (at + kFrameHeaderSize + size > file->size()) {
      ++at;
      continue;
    }
    PutUint32(Crc32c(bytes + at + kFrameHeaderSize, size), bytes + at + 12);
    PutUint32(Crc32c(bytes + at, 16), bytes + at + 16);
    at += kFrameHeaderSize + size;
  }
}

bool FixChecksumsMode() {
  const char* mode = std::getenv("FUZZ_FIX_CRC");
  return mode != nullptr && std::strcmp(mode, "1") == 0;
}

}  // namespace prof::fuzz
