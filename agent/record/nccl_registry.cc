#include "agent/record/nccl_registry.h"

#include <atomic>

namespace prof {
namespace {

// One communicator. `key` is claimed once (nullptr -> comm) and never changes after.
// `version` is odd while the value is being written and 0 until the first write ends.
struct Slot {
  std::atomic<const void*> key{nullptr};
  std::atomic<uint32_t> version{0};
  std::atomic<uint64_t> comm_hash{0};
  // 0, not -1, until the first write (read only once `version` is nonzero): an all-zero
  // table lives in .bss, where it costs a process nothing until NCCL is used, not in .data
  // (64 KiB mapped at load with the pages the loader relocates).
  std::atomic<int32_t> rank{0};
  std::atomic<int32_t> rank_count{0};
  std::atomic<uint64_t> init_start_ns{0};
  std::atomic<uint64_t> init_duration_ns{0};
  std::atomic<uint64_t> derivations{0};
  std::atomic<int64_t> calls{0};  // NextCallSequence
};

// Constant-initialized (constexpr constructors), so usable from any constructor or
// exit handler, and untouched pages cost nothing.
Slot g_slots[kCommunicatorSlots];

size_t HomeOf(const void* comm) {
  const uint64_t bits = reinterpret_cast<uintptr_t>(comm) >> 4;  // allocations are aligned
  return static_cast<size_t>((bits * 0x9E3779B97F4A7C15ull) >> 32) % kCommunicatorSlots;
}

// The slot holding `comm`, or nullptr. Keys are never removed, so an empty slot ends the
// probe sequence.
Slot* Find(const void* comm) {
  if (comm == nullptr) return nullptr;
  size_t index = HomeOf(comm);
  for (size_t probe = 0; probe < kCommunicatorSlots; ++probe) {
    Slot& slot = g_slots[index];
    const void* key = slot.key.load(std::memory_order_acquire);
    if (key == comm) return &slot;
    if (key == nullptr) return nullptr;
    index = (index + 1) % kCommunicatorSlots;
  }
  return nullptr;
}

Slot* FindOrClaim(const void* comm) {
  size_t index = HomeOf(comm);
  for (size_t probe = 0; probe < kCommunicatorSlots; ++probe) {
    Slot& slot = g_slots[index];
    const void* key = slot.key.load(std::memory_order_acquire);
    if (key == nullptr && slot.key.compare_exchange_strong(key, comm, std::memory_order_acq_rel)) {
      return &slot;
    }
    if (key == comm) return &slot;  // already ours, or another thread claimed it for comm
    index = (index + 1) % kCommunicatorSlots;
  }
  return nullptr;
}

}  // namespace

bool RegisterCommunicator(const void* comm, const CommunicatorInfo& info) {
  if (comm == nullptr) return false;
  Slot* slot = FindOrClaim(comm);
  if (slot == nullptr) return false;
  // One writer per key at a time: a pointer is returned by one creation call, so two
  // threads never register the same communicator concurrently.
  const uint32_t version = slot->version.load(std::memory_order_relaxed) | 1u;
  slot->version.store(version, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot->comm_hash.store(info.comm_hash, std::memory_order_relaxed);
  slot->rank.store(info.rank, std::memory_order_relaxed);
  slot->rank_count.store(info.rank_count, std::memory_order_relaxed);
  slot->init_start_ns.store(info.init_start_ns, std::memory_order_relaxed);
  slot->init_duration_ns.store(info.init_duration_ns, std::memory_order_relaxed);
  slot->derivations.store(0, std::memory_order_relaxed);
  slot->calls.store(0, std::memory_order_relaxed);
  slot->version.store(version + 1, std::memory_order_release);
  return true;
}

bool LookupCommunicator(const void* comm, CommunicatorInfo* info) {
  Slot* slot = Find(comm);
  if (slot == nullptr) return false;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const uint32_t before = slot->version.load(std::memory_order_acquire);
    if (before == 0) return false;  // claimed, first value not written yet
    if (before & 1u) continue;
    info->comm_hash = slot->comm_hash.load(std::memory_order_relaxed);
    info->rank = slot->rank.load(std::memory_order_relaxed);
    info->rank_count = slot->rank_count.load(std::memory_order_relaxed);
    info->init_start_ns = slot->init_start_ns.load(std::memory_order_relaxed);
    info->init_duration_ns = slot->init_duration_ns.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot->version.load(std::memory_order_relaxed) == before) return true;
  }
  return false;
}

int32_t CommunicatorRankCount(const void* comm) {
  Slot* slot = Find(comm);
  return slot ? slot->rank_count.load(std::memory_order_relaxed) : 0;
}

void LearnRankCount(const void* comm, int32_t rank_count) {
  Slot* slot = Find(comm);
  if (slot == nullptr || rank_count <= 0) return;
  int32_t unknown = 0;
  // Outside the sequence counter on purpose: either value is a whole, valid answer.
  slot->rank_count.compare_exchange_strong(unknown, rank_count, std::memory_order_relaxed);
}

bool NextDerivationOf(const void* parent, uint64_t* index) {
  Slot* slot = Find(parent);
  if (slot == nullptr || slot->version.load(std::memory_order_acquire) == 0) return false;
  *index = slot->derivations.fetch_add(1, std::memory_order_relaxed);
  return true;
}

int64_t NextCallSequence(const void* comm) {
  Slot* slot = Find(comm);
  return slot ? slot->calls.fetch_add(1, std::memory_order_relaxed) + 1 : 0;
}

void ResetCommunicatorsAfterFork() {
  for (Slot& slot : g_slots) {
    const uint32_t version = slot.version.load(std::memory_order_relaxed);
    if (version & 1u) slot.version.store(version + 1, std::memory_order_relaxed);
  }
}

}  // namespace prof
