// A single-producer, single-consumer ring of Records: the owning thread appends, the
// writer thread drains. Lock-free; the producer never blocks and never allocates: when the
// ring is full the record is dropped and counted.
//
// Thread safety: Reserve/Commit only from the owning thread; Drain/DrainBefore only from
// the writer thread. head_ is written by the producer, tail_ by the consumer
// (release/acquire): a record below head_ is complete, start time included.
#ifndef PROF_AGENT_RECORD_THREAD_BUFFER_H_
#define PROF_AGENT_RECORD_THREAD_BUFFER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "agent/record/record.h"

namespace prof {

class ThreadBuffer {
 public:
  ThreadBuffer(uint64_t thread_id, size_t capacity_bytes);

  uint64_t thread_id() const { return thread_id_.load(std::memory_order_acquire); }

  // A new thread takes over a buffer whose owner exited and whose records are all
  // drained; called under the registry's mutex.
  void Adopt(uint64_t thread_id) {
    thread_id_.store(thread_id, std::memory_order_release);
    owner_exited.store(false, std::memory_order_release);
  }

  // Space for a record of `size` bytes (a multiple of 8), or nullptr when full (counted).
  Record* Reserve(size_t size) {
    uint64_t head = head_.load(std::memory_order_relaxed);
    size_t offset = static_cast<size_t>(head % capacity_);
    const size_t padding = offset + size > capacity_ ? capacity_ - offset : 0;
    if (head + padding + size - tail_.load(std::memory_order_acquire) > capacity_) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    if (padding > 0) {
      // The consumer skips from a padding record to the end of the ring; only its kind
      // is read, which fits in the 8 bytes that are always left.
      At(offset)->kind = RecordKind::kPadding;
      offset = 0;
    }
    pending_head_ = head + padding;
    return At(offset);
  }

  // Publishes the record returned by the last Reserve.
  void Commit(size_t size) {
    head_.store(pending_head_ + size, std::memory_order_release);
  }

  // Calls visit(const Record&) for every committed record, then frees their space.
  template <typename Visitor>
  uint64_t Drain(Visitor&& visit) {
    return DrainBefore(UINT64_MAX, visit);
  }

  // Like Drain, but stops at the first record that starts at or after `before_ns`: it and
  // the records after it stay for a later call. A thread appends its records in about
  // the order of their start times, so stopping there holds back only what must wait.
  template <typename Visitor>
  uint64_t DrainBefore(uint64_t before_ns, Visitor&& visit) {
    uint64_t tail = tail_.load(std::memory_order_relaxed);
    const uint64_t head = head_.load(std::memory_order_acquire);
    uint64_t count = 0;
    while (tail < head) {
      const size_t offset = static_cast<size_t>(tail % capacity_);
      const Record* record = At(offset);
      if (record->kind == RecordKind::kPadding) {
        tail += capacity_ - offset;  // padding always runs to the end of the ring
        continue;
      }
      if (record->start_ns >= before_ns) break;
      visit(*record);
      tail += record->size;
      ++count;
    }
    tail_.store(tail, std::memory_order_release);
    return count;
  }

  // Records dropped because the ring was full; reading resets the count.
  uint64_t TakeDropped() { return dropped_.exchange(0, std::memory_order_relaxed); }

  bool empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_acquire);
  }

  // Set when the owning thread has exited; once drained, a new thread may adopt it.
  std::atomic<bool> owner_exited{false};

 private:
  Record* At(size_t offset) { return reinterpret_cast<Record*>(bytes_ + offset); }

  std::atomic<uint64_t> thread_id_;
  const size_t capacity_;
  std::unique_ptr<uint64_t[]> words_;  // the ring; uint64_t keeps records 8-byte aligned
  uint8_t* const bytes_;
  alignas(64) std::atomic<uint64_t> head_{0};  // bytes ever published by the producer
  uint64_t pending_head_ = 0;                  // producer-only: where the reserved record starts
  alignas(64) std::atomic<uint64_t> tail_{0};  // bytes ever consumed by the writer
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace prof

#endif  // PROF_AGENT_RECORD_THREAD_BUFFER_H_
