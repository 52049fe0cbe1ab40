// Communicator identities that are the same on every rank of a communicator, so the
// analyzer can match one collective's calls across the ranks' trace files:
//  - ncclCommInitRank*: a hash of the ncclUniqueId(s) every rank was given;
//  - ncclCommSplit: the parent's identity, the parent's derivation count (all ranks
//    split a communicator in the same order) and the color;
//  - ncclCommShrink: the same with the excluded ranks instead of a color;
//  - ncclCommInitAll (one process holds every rank), or a communicator derived from one
//    the agent never saw: unique to this process and call.
#ifndef PROF_AGENT_HOOKS_NCCL_IDENTITY_H_
#define PROF_AGENT_HOOKS_NCCL_IDENTITY_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// FNV-1a: simple, the same in every process and build. The offset is not the published
// one (14695981039346656037: a digit was lost), but it is what every agent version hashed
// with, and ranks traced by different versions must still agree: kept.
constexpr uint64_t kFnvOffset = 1469598103934665603ull;
uint64_t HashBytes(uint64_t hash, const void* data, size_t size);

uint64_t HashUniqueIds(const void* ids, size_t id_count, size_t id_bytes);
uint64_t SplitIdentity(uint64_t parent_hash, uint64_t derivation, int color);
uint64_t ShrinkIdentity(uint64_t parent_hash, uint64_t derivation, const int* excluded,
                        int excluded_count);
// pid, the call's start time and a per-process counter.
uint64_t ProcessLocalIdentity(uint64_t start_ns);

// Registers `comm` (nccl_registry.h) as rank `rank` of `ranks` with identity `hash`, its
// creation timed from `start_ns` to now. After the real call: keeps that call's errno.
void RegisterIdentity(const void* comm, uint64_t hash, int rank, int ranks, uint64_t start_ns);

// A communicator about to be derived from `parent` (ncclCommSplit, ncclCommShrink): the
// parent's identity and this derivation's number, taken before the real call on every
// rank, whatever color it asks for, so the numbering stays the same on all ranks.
struct CommDerivation {
  bool known = false;  // the parent is registered; else the identity is process-local
  uint64_t parent_hash = 0;
  uint64_t number = 0;  // derivations of the parent before this one
  uint64_t start_ns = 0;
};
CommDerivation BeginDerivation(const void* parent, uint64_t start_ns);
// The derived communicator's identity (after the real call created it).
uint64_t SplitIdentityOf(const CommDerivation& derivation, int color);
uint64_t ShrinkIdentityOf(const CommDerivation& derivation, const int* excluded,
                          int excluded_count);

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_NCCL_IDENTITY_H_
