#include "agent/record/step_losses.h"

namespace prof {
namespace internal {
std::atomic<int64_t> g_current_step{0};
}  // namespace internal

namespace {

constexpr uint64_t kCountMask = 0xffffffffu;
constexpr int kSlots = 256;
constexpr int kKinds = 16;
constexpr int64_t kMaxSlotStep = (int64_t{1} << 28) - 2;

// A displaced count in one word, claimed from 0 by CAS and cleared by exchange: kind (4
// bits), step + 1 (28 bits), count (32 bits).
std::atomic<uint64_t> g_slots[kSlots];
// Counts that found no slot, or whose step does not fit one, by kind (step unknown).
std::atomic<uint64_t> g_without_step[kKinds];
// Set (release) after a count is displaced into either; the writer's TakeDisplacedLosses
// scans them only after clearing it (acquire), so every pass without a loss skips the
// 256-slot scan (~1,000 instructions a pass, 1.0M of the writer's 15.1M over
// aten_cost's loop under callgrind, issue 26). A count displaced while a scan runs either
// is seen by that scan or sets the flag again for the next.
std::atomic<bool> g_displaced{false};

void Displace(int32_t kind, int64_t step, uint64_t count) {
  if (count == 0) return;
  const int k = kind & (kKinds - 1);
  if (step >= 0 && step <= kMaxSlotStep) {
    const uint64_t word = uint64_t(k) << 60 | uint64_t(step + 1) << 32 | (count & kCountMask);
    for (auto& slot : g_slots) {
      uint64_t empty = 0;
      if (slot.load(std::memory_order_relaxed) == 0 &&
          slot.compare_exchange_strong(empty, word, std::memory_order_relaxed)) {
        g_displaced.store(true, std::memory_order_release);
        return;
      }
    }
  }
  g_without_step[k].fetch_add(count, std::memory_order_relaxed);
  g_displaced.store(true, std::memory_order_release);
}

}  // namespace

void StepLossCounter::Add(int64_t step) {
  const uint64_t step_bits = uint64_t(step + 1) << 32;
  uint64_t word = word_.load(std::memory_order_relaxed);
  while (true) {
    const bool same_step = (word & ~kCountMask) == step_bits;
    const uint64_t count = word & kCountMask;
    // A count about to overflow its 32 bits is displaced like a step change.
    const uint64_t next = same_step && count < kCountMask ? word + 1 : step_bits | 1;
    if (word_.compare_exchange_weak(word, next, std::memory_order_relaxed)) {
      if (next == (step_bits | 1) && count != 0) {
        Displace(kind_, static_cast<int64_t>(word >> 32) - 1, count);
      }
      return;
    }
  }
}

void StepLossCounter::Take(
    const std::function<void(int32_t kind, int64_t step, uint64_t count)>& report) {
  uint64_t word = word_.load(std::memory_order_relaxed);
  while ((word & kCountMask) != 0) {
    if (word_.compare_exchange_weak(word, word & ~kCountMask, std::memory_order_relaxed)) {
      report(kind_, static_cast<int64_t>(word >> 32) - 1, word & kCountMask);
      return;
    }
  }
}

void TakeDisplacedLosses(
    const std::function<void(int32_t kind, int64_t step, uint64_t count)>& report) {
  if (!g_displaced.load(std::memory_order_relaxed)) return;
  if (!g_displaced.exchange(false, std::memory_order_acquire)) return;
  for (auto& slot : g_slots) {
    if (slot.load(std::memory_order_relaxed) == 0) continue;
    const uint64_t word = slot.exchange(0, std::memory_order_relaxed);
    if (word == 0) continue;
    report(static_cast<int32_t>(word >> 60), static_cast<int64_t>((word >> 32) & 0x0fffffff) - 1,
           word & kCountMask);
  }
  for (int kind = 0; kind < kKinds; ++kind) {
    const uint64_t count = g_without_step[kind].exchange(0, std::memory_order_relaxed);
    if (count) report(kind, -1, count);
  }
}

void ResetStepLossesAfterFork() {
  for (auto& slot : g_slots) slot.store(0, std::memory_order_relaxed);
  for (auto& count : g_without_step) count.store(0, std::memory_order_relaxed);
  g_displaced.store(false, std::memory_order_relaxed);
  internal::g_current_step.store(0, std::memory_order_relaxed);
}

}  // namespace prof
