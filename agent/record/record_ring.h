// A small fixed single-producer, single-consumer ring of Records: each thread's control
// ring (thread_buffer.h), which takes step boundaries, ranges and thread names when the
// PROF_BUFFER_MB pool has no room, so data records can never crowd them out.
//
// Memory order: head_ is written by the producer only (release after the record is
// complete), tail_ by the consumer only (release after it has read the record): a record
// below head_ is complete; space below tail_ is free.
//
// Thread safety: Reserve/Commit from the owning thread only; Peek/Pop/Publish from the
// writer thread only.
#ifndef PROF_AGENT_RECORD_RECORD_RING_H_
#define PROF_AGENT_RECORD_RECORD_RING_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "agent/record/record.h"

namespace prof {

template <size_t kCapacity>
class RecordRing {
  static_assert(kCapacity % 8 == 0, "records are 8-byte aligned");

 public:
  // Space for `size` bytes, if the ring would then hold at most `limit` bytes; else nullptr.
  Record* Reserve(size_t size, size_t limit) {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    size_t offset = static_cast<size_t>(head % kCapacity);
    const size_t padding = offset + size > kCapacity ? kCapacity - offset : 0;
    if (head + padding + size - tail_.load(std::memory_order_acquire) > limit) return nullptr;
    if (padding > 0) {
      // The consumer skips from a padding record to the end of the ring; only its kind
      // is read, which fits in the 8 bytes that are always left.
      At(offset)->kind = RecordKind::kPadding;
      offset = 0;
    }
    pending_head_ = head + padding;
    return At(offset);
  }

  void Commit(size_t size) { head_.store(pending_head_ + size, std::memory_order_release); }

  // The oldest unread record, or nullptr. Consumer only.
  const Record* Peek() {
    const uint64_t head = head_.load(std::memory_order_acquire);
    while (read_ < head) {
      const size_t offset = static_cast<size_t>(read_ % kCapacity);
      const Record* record = At(offset);
      if (record->kind != RecordKind::kPadding) return record;
      read_ += kCapacity - offset;  // padding always runs to the end of the ring
    }
    return nullptr;
  }
  // Steps past the record Peek returned; Publish frees the space read so far.
  void Pop(const Record& record) { read_ += record.size; }
  void Publish() { tail_.store(read_, std::memory_order_release); }

  // Consumer: nothing committed is left unread.
  bool drained() const { return read_ == head_.load(std::memory_order_acquire); }

  static constexpr size_t capacity() { return kCapacity; }

 private:
  Record* At(size_t offset) { return reinterpret_cast<Record*>(bytes_ + offset); }

  alignas(8) uint8_t bytes_[kCapacity];
  alignas(64) std::atomic<uint64_t> head_{0};  // bytes ever published by the producer
  uint64_t pending_head_ = 0;                  // producer only: where the reserved record starts
  alignas(64) std::atomic<uint64_t> tail_{0};  // bytes ever freed by the consumer
  uint64_t read_ = 0;                          // consumer only: bytes read (>= tail_)
};

}  // namespace prof

#endif  // PROF_AGENT_RECORD_RECORD_RING_H_
