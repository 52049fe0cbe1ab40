// Communicator identities that are the same on every rank of a communicator, so the
// analyzer can match one collective's calls across the ranks' trace files:
//  - ncclCommInitRank*: a hash of the ncclUniqueId(s) every rank was given;
//  - ncclCommSplit: the parent's identity, the parent's derivation count (all ranks
//    split a communicator in the same order) and the color;
//  - ncclCommShrink: the same with the excluded ranks instead of a color;
//  - ncclCommInitAll (one process holds every rank): unique to this process and call.
#ifndef PROF_AGENT_HOOKS_NCCL_IDENTITY_H_
#define PROF_AGENT_HOOKS_NCCL_IDENTITY_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// FNV-1a: simple, the same in every process and build.
constexpr uint64_t kFnvOffset = 1469598103934665603ull;
uint64_t HashBytes(uint64_t hash, const void* data, size_t size);

uint64_t HashUniqueIds(const void* ids, size_t id_count, size_t id_bytes);
uint64_t SplitIdentity(uint64_t parent_hash, uint64_t derivation, int color);
uint64_t ShrinkIdentity(uint64_t parent_hash, uint64_t derivation, const int* excluded,
                        int excluded_count);
// pid, the call's start time and a per-process counter.
uint64_t ProcessLocalIdentity(uint64_t start_ns);

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_NCCL_IDENTITY_H_
