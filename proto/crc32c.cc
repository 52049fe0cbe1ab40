#include "proto/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace prof {
namespace {

constexpr uint32_t kReversedPolynomial = 0x82F63B78u;

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc >> 1) ^ ((crc & 1u) ? kReversedPolynomial : 0u);
    }
    table[i] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t UpdateWithTable(uint32_t crc, const uint8_t* bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    crc = kTable[(crc ^ bytes[i]) & 0xFFu] ^ (crc >> 8);
  }
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t UpdateWithInstruction(uint32_t crc, const uint8_t* bytes,
                                                                 size_t size) {
  uint64_t wide = crc;
  while (size >= 8) {
    uint64_t word;
    std::memcpy(&word, bytes, sizeof(word));
    wide = _mm_crc32_u64(wide, word);
    bytes += 8;
    size -= 8;
  }
  crc = static_cast<uint32_t>(wide);
  while (size > 0) {
    crc = _mm_crc32_u8(crc, *bytes++);
    --size;
  }
  return crc;
}

bool CpuHasCrcInstruction() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

}  // namespace

uint32_t Crc32c(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint32_t crc = 0xFFFFFFFFu;
#if defined(__x86_64__)
  if (CpuHasCrcInstruction()) return ~UpdateWithInstruction(crc, bytes, size);
#endif
  return ~UpdateWithTable(crc, bytes, size);
}

uint32_t Crc32cPortable(const void* data, size_t size) {
  return ~UpdateWithTable(0xFFFFFFFFu, static_cast<const uint8_t*>(data), size);
}

}  // namespace prof
