// The step controller's commands to the writer thread: a fixed-capacity lock-free ring
// (single producer, single consumer), and behind it an overflow list for when the ring is
// full, taken in order. Push never allocates, locks or makes a system call while the ring
// has room; a full ring (a consumer that has not run for kRing pushes) sends values to the
// overflow list under a mutex that only TakeAll also takes, briefly. Nothing is dropped.
//
// Ordering: values come out in push order. While overflow values wait, every new value
// goes to the overflow list too; TakeAll empties the ring again after it saw them, before
// it takes the overflow list (everything in the ring was pushed before it).
//
// Thread safety: one producer thread at a time (TraceWriter's producers are serialized by
// the step controller's mutex) and one consumer (the writer thread).
#ifndef PROF_AGENT_WRITER_COMMAND_QUEUE_H_
#define PROF_AGENT_WRITER_COMMAND_QUEUE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <vector>

namespace prof {

template <typename T, size_t kRing>
class CommandQueue {
  static_assert(std::is_trivially_copyable<T>::value, "ring slots are plain copies");

 public:
  // Producer.
  void Push(const T& value) {
    if (!overflow_pending_.load(std::memory_order_acquire) && PushToRing(value)) return;
    std::lock_guard<std::mutex> lock(overflow_mutex_);
    overflow_.push_back(value);  // allocates, rarely: only behind a stalled consumer
    overflow_pending_.store(true, std::memory_order_release);
  }

  // Consumer: appends every value pushed before the call to `out`, oldest first.
  void TakeAll(std::vector<T>* out) {
    TakeRing(out);
    if (!overflow_pending_.load(std::memory_order_acquire)) return;
    TakeRing(out);  // what the ring got before the first overflow value
    std::lock_guard<std::mutex> lock(overflow_mutex_);
    out->insert(out->end(), overflow_.begin(), overflow_.end());
    overflow_.clear();
    overflow_pending_.store(false, std::memory_order_release);
  }

  // Either side (a hint: a push may land right after).
  bool empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_acquire) &&
           !overflow_pending_.load(std::memory_order_acquire);
  }

 private:
  bool PushToRing(const T& value) {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) >= kRing) return false;
    slots_[head % kRing] = value;
    head_.store(head + 1, std::memory_order_release);  // publishes the slot
    return true;
  }

  void TakeRing(std::vector<T>* out) {
    uint64_t tail = tail_.load(std::memory_order_relaxed);
    const uint64_t head = head_.load(std::memory_order_acquire);
    for (; tail != head; ++tail) out->push_back(slots_[tail % kRing]);
    tail_.store(tail, std::memory_order_release);  // frees the slots
  }

  T slots_[kRing];
  alignas(64) std::atomic<uint64_t> head_{0};  // written by the producer
  alignas(64) std::atomic<uint64_t> tail_{0};  // written by the consumer
  std::atomic<bool> overflow_pending_{false};
  std::mutex overflow_mutex_;
  std::vector<T> overflow_;  // guarded by overflow_mutex_
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_COMMAND_QUEUE_H_
