// NCCL communicators seen by the hooks, keyed by the ncclComm_t pointer. Communicators
// are usually created before a window opens, so they are registered whatever the
// recording state (at ncclCommInit*, ncclCommSplit, ncclCommShrink), and each window file
// defines those it uses.
//
// A fixed lock-free open-addressing table, because the collective hooks read the rank
// count on every call (all-gather bytes): no lock, allocation or system call anywhere.
// Keys are claimed with a compare-and-swap and never removed (a destroyed communicator's
// records may not be written yet; an address reused by a new communicator is simply
// rewritten). Each slot's value is written under a sequence counter: a reader that
// overlaps a rewrite retries, a bounded number of times, and otherwise reports "unknown".
// When the table is full, later communicators are unknown (rank count 0).
#ifndef PROF_AGENT_RECORD_NCCL_REGISTRY_H_
#define PROF_AGENT_RECORD_NCCL_REGISTRY_H_

#include <cstddef>
#include <cstdint>

namespace prof {

constexpr size_t kCommunicatorSlots = 1024;

struct CommunicatorInfo {
  uint64_t comm_hash = 0;  // the same on every rank of the communicator
  int32_t rank = -1;
  int32_t rank_count = 0;
  uint64_t init_start_ns = 0;
  uint64_t init_duration_ns = 0;
};

// Thread-safe, lock-free. Returns false when the table is full.
bool RegisterCommunicator(const void* comm, const CommunicatorInfo& info);

// False when `comm` was never registered (created before the agent loaded, or the table
// was full) or its value is being rewritten right now.
bool LookupCommunicator(const void* comm, CommunicatorInfo* info);

// The hot path's question: the rank count, 0 when unknown. One probe sequence of
// relaxed/acquire loads.
int32_t CommunicatorRankCount(const void* comm);

// Fills in the rank count of a registered communicator whose count was not known at
// creation (a non-blocking split still initializing); keeps a known count. One
// compare-and-swap: callable from the hot path.
void LearnRankCount(const void* comm, int32_t rank_count);

// How many communicators were derived (split or shrunk) from `parent` before this call;
// every rank derives in the same order, so this numbers a derivation the same way on
// every rank. Returns false when `parent` is unknown.
bool NextDerivationOf(const void* parent, uint64_t* index);

// The number of this call on `comm`: 1 for its first collective or send/recv, 2 for the
// next, ... (every member makes the same calls in the same order, so the k-th call is the
// same collective on every rank: what analyzer/job matches on). 0 when `comm` is unknown.
// One probe sequence and one relaxed fetch_add: hot path (the NCCL hooks, whenever they
// see a call, also outside recording windows while the flight recorder is on).
int64_t NextCallSequence(const void* comm);

// In a forked child: a slot that a parent thread was rewriting at fork time stays half
// written; settle its sequence counter so readers do not retry forever.
void ResetCommunicatorsAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_NCCL_REGISTRY_H_
