#include "agent/hooks/nccl_identity.h"

#include <unistd.h>

#include <atomic>

#include "agent/record/clock.h"
#include "agent/record/errno_preserved.h"
#include "agent/record/nccl_registry.h"

namespace prof {

uint64_t HashBytes(uint64_t hash, const void* data, size_t size) {
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

uint64_t HashUniqueIds(const void* ids, size_t id_count, size_t id_bytes) {
  return HashBytes(kFnvOffset, ids, id_count * id_bytes);
}

uint64_t SplitIdentity(uint64_t parent_hash, uint64_t derivation, int color) {
  const char tag[] = "split";
  uint64_t hash = HashBytes(kFnvOffset, tag, sizeof(tag));
  hash = HashBytes(hash, &parent_hash, sizeof(parent_hash));
  hash = HashBytes(hash, &derivation, sizeof(derivation));
  return HashBytes(hash, &color, sizeof(color));
}

uint64_t ShrinkIdentity(uint64_t parent_hash, uint64_t derivation, const int* excluded,
                        int excluded_count) {
  const char tag[] = "shrink";
  uint64_t hash = HashBytes(kFnvOffset, tag, sizeof(tag));
  hash = HashBytes(hash, &parent_hash, sizeof(parent_hash));
  hash = HashBytes(hash, &derivation, sizeof(derivation));
  // The list's order is the caller's; every rank passes the same list.
  if (excluded && excluded_count > 0)
    hash = HashBytes(hash, excluded, excluded_count * sizeof(int));
  return hash;
}

uint64_t ProcessLocalIdentity(uint64_t start_ns) {
  static std::atomic<uint64_t> counter{0};
  const uint64_t fields[] = {static_cast<uint64_t>(getpid()), start_ns,
                             counter.fetch_add(1, std::memory_order_relaxed)};
  return HashBytes(kFnvOffset, fields, sizeof(fields));
}

void RegisterIdentity(const void* comm, uint64_t hash, int rank, int ranks, uint64_t start_ns) {
  ErrnoPreserved keep;  // after the real call: the caller sees that call's errno
  CommunicatorInfo info;
  info.comm_hash = hash;
  info.rank = rank;
  info.rank_count = ranks;
  info.init_start_ns = start_ns;
  info.init_duration_ns = MonotonicNs() - start_ns;
  RegisterCommunicator(comm, info);
}

CommDerivation BeginDerivation(const void* parent, uint64_t start_ns) {
  CommDerivation derivation;
  derivation.start_ns = start_ns;
  CommunicatorInfo info;
  if (LookupCommunicator(parent, &info) && NextDerivationOf(parent, &derivation.number)) {
    derivation.known = true;
    derivation.parent_hash = info.comm_hash;
  }
  return derivation;
}

uint64_t SplitIdentityOf(const CommDerivation& derivation, int color) {
  if (!derivation.known) return ProcessLocalIdentity(derivation.start_ns);
  return SplitIdentity(derivation.parent_hash, derivation.number, color);
}

uint64_t ShrinkIdentityOf(const CommDerivation& derivation, const int* excluded,
                          int excluded_count) {
  if (!derivation.known) return ProcessLocalIdentity(derivation.start_ns);
  return ShrinkIdentity(derivation.parent_hash, derivation.number, excluded, excluded_count);
}

}  // namespace prof
