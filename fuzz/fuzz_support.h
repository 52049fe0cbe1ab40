// Shared by the libFuzzer targets (scripts/fuzz.sh builds them with clang, outside Bazel).
#ifndef PROF_FUZZ_FUZZ_SUPPORT_H_
#define PROF_FUZZ_FUZZ_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace prof::fuzz {

// Rewrites, in place, the preamble checksum and the checksums of every frame found walking
// the file from its preamble (a frame magic whose claimed payload fits in the file), so a
// mutated file still passes the framing and the fuzzer reaches the decoder.
void RecomputeChecksums(std::string* file);

// True when FUZZ_FIX_CRC=1 is set: the frame reader target then recomputes checksums.
bool FixChecksumsMode();

}  // namespace prof::fuzz

#endif  // PROF_FUZZ_FUZZ_SUPPORT_H_
