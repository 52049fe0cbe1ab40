// CRC-32C (Castagnoli), the checksum of every frame in a trace file.
//
// Uses the SSE4.2 crc32 instruction when the CPU has it (about 8 bytes per cycle) and a
// table otherwise; both give the same value. Thread-safe, no allocation.
//
//   uint32_t crc = prof::Crc32c(bytes.data(), bytes.size());
#ifndef PROF_PROTO_CRC32C_H_
#define PROF_PROTO_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// Checksum of `size` bytes at `data`.
uint32_t Crc32c(const void* data, size_t size);

// The same checksum computed with the table only; for tests of the fast path.
uint32_t Crc32cPortable(const void* data, size_t size);

}  // namespace prof

#endif  // PROF_PROTO_CRC32C_H_
