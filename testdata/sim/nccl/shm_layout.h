// Byte layout of the shared-memory segment that connects the ranks of one simulated
// communicator. Every rank maps the same segment (named by the ncclUniqueId), so the
// structures here are shared between processes: only lock-free std::atomic fields and
// plain bytes, no pointers, no constructors run on them (the segment starts zeroed).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace simnccl {

// A 64-byte aligned block so that ranks polling each other's counters do not share
// cache lines more than necessary.
constexpr size_t kCacheLine = 64;

inline size_t AlignUp(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Segment-wide facts, agreed on by whichever rank arrives first.
struct alignas(kCacheLine) SegmentHeader {
  std::atomic<uint32_t> nranks;  // 0 until the first rank claims it with its nranks
};

// Lifecycle of one rank as its peers see it.
enum RankState : uint32_t {
  kRankAbsent = 0,
  kRankJoined = 1,
  kRankDestroyed = 2,
  kRankAborted = 3,
};

// One per rank: the collective "round" protocol (see collective_op.h) and liveness.
struct alignas(kCacheLine) RankSlotHeader {
  std::atomic<int32_t> pid;          // owning process, for liveness checks
  std::atomic<uint32_t> state;       // RankState
  std::atomic<uint64_t> posted;      // last round whose data sits in this rank's slot
  std::atomic<uint64_t> consumed;    // last round this rank finished reading from all slots
  std::atomic<uint64_t> arrival_ns;  // this rank's arrival time for the posted round
};

// One per ordered pair (sender, receiver): the point-to-point protocol (see p2p_op.h).
struct alignas(kCacheLine) MailboxHeader {
  std::atomic<uint64_t> send_op_seq;      // sends started by the sender to this receiver
  std::atomic<uint64_t> recv_op_seq;      // receives started by the receiver from this sender
  std::atomic<uint64_t> send_arrival_ns;  // sender's arrival time for send_op_seq
  std::atomic<uint64_t> recv_arrival_ns;  // receiver's arrival time for recv_op_seq
  std::atomic<uint64_t> chunks_posted;    // chunks written by the sender (cumulative)
  std::atomic<uint64_t> chunks_acked;     // chunks copied out by the receiver (cumulative)
  std::atomic<uint64_t> chunk_bytes;      // size of the chunk that is currently posted
};

static_assert(std::atomic<uint64_t>::is_always_lock_free,
              "cross-process atomics must be lock-free");

// Offsets of each region inside a segment for a given rank count and capacities.
struct SegmentLayout {
  int nranks = 0;
  size_t slot_bytes = 0;     // per-rank collective staging capacity
  size_t mailbox_bytes = 0;  // per-pair point-to-point staging capacity
  size_t rank_headers_offset = 0;
  size_t mailbox_headers_offset = 0;
  size_t slot_data_offset = 0;
  size_t mailbox_data_offset = 0;
  size_t total_bytes = 0;

  static SegmentLayout Compute(int nranks, size_t slot_bytes, size_t mailbox_bytes) {
    SegmentLayout layout;
    layout.nranks = nranks;
    layout.slot_bytes = AlignUp(slot_bytes, kCacheLine);
    layout.mailbox_bytes = AlignUp(mailbox_bytes, kCacheLine);
    const size_t n = static_cast<size_t>(nranks);
    size_t offset = AlignUp(sizeof(SegmentHeader), kCacheLine);
    layout.rank_headers_offset = offset;
    offset += n * sizeof(RankSlotHeader);
    layout.mailbox_headers_offset = offset;
    offset += n * n * sizeof(MailboxHeader);
    offset = AlignUp(offset, 4096);
    layout.slot_data_offset = offset;
    offset += n * layout.slot_bytes;
    layout.mailbox_data_offset = offset;
    offset += n * n * layout.mailbox_bytes;
    layout.total_bytes = AlignUp(offset, 4096);
    return layout;
  }
};

}  // namespace simnccl
