// A fixed-capacity single-producer, single-consumer ring of trivially copyable values: the
// step controller's commands to the writer thread. Push and TakeAll never lock, allocate or
// make a system call; Push fails (returns false) when the ring is full, and the caller
// decides what then (TraceWriter queues the command on a slower, locked path, in order).
//
// Thread safety: one producer thread at a time (TraceWriter's producers are serialized by
// the step controller's mutex) and one consumer (the writer thread).
#ifndef PROF_AGENT_WRITER_SPSC_RING_H_
#define PROF_AGENT_WRITER_SPSC_RING_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace prof {

template <typename T, size_t kCapacity>
class SpscRing {
  static_assert(std::is_trivially_copyable<T>::value, "slots are copied while racing nobody");

 public:
  // Producer.
  bool Push(const T& value) {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) >= kCapacity) return false;
    slots_[head % kCapacity] = value;
    head_.store(head + 1, std::memory_order_release);  // publishes the slot
    return true;
  }

  // Consumer: calls `take(value)` for every value pushed before the call, oldest first.
  template <typename Take>
  void TakeAll(Take&& take) {
    uint64_t tail = tail_.load(std::memory_order_relaxed);
    const uint64_t head = head_.load(std::memory_order_acquire);
    for (; tail != head; ++tail) take(slots_[tail % kCapacity]);
    tail_.store(tail, std::memory_order_release);  // frees the slots
  }

  // Either side (a hint: another push may land right after).
  bool empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_acquire);
  }

 private:
  T slots_[kCapacity];
  alignas(64) std::atomic<uint64_t> head_{0};  // written by the producer
  alignas(64) std::atomic<uint64_t> tail_{0};  // written by the consumer
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_SPSC_RING_H_
