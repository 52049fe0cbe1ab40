// What a simulated ncclUniqueId carries: the name of the shared-memory segment the
// ranks rendezvous in, and the staging capacities chosen by the rank that created it
// (so every rank computes the same segment layout even if their environments differ).
#pragma once

#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace simnccl {

struct UniqueIdContents {
  std::string segment_name;  // POSIX shm name, "/simnccl.<pid>.<n>.<random>"
  uint64_t slot_bytes = 0;
  uint64_t mailbox_bytes = 0;
};

// Builds a fresh id: a segment name no other communicator uses, capacities from the
// environment (SIM_NCCL_SLOT_BYTES, SIM_NCCL_MAILBOX_BYTES).
UniqueIdContents MakeFreshUniqueId();

void EncodeUniqueId(const UniqueIdContents& contents, ncclUniqueId* id);

// False when the bytes were not produced by EncodeUniqueId (e.g. an uninitialised id).
bool DecodeUniqueId(const ncclUniqueId& id, UniqueIdContents* contents);

// A stable 64-bit hash of the whole id, the same on every rank.
uint64_t HashUniqueId(const ncclUniqueId& id);

}  // namespace simnccl
