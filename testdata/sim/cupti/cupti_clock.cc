#include "testdata/sim/cupti/cupti_clock.h"

#include <atomic>
#include <ctime>

#include "testdata/sim/cupti/cupti_config.h"

namespace simcupti {
namespace {

std::atomic<bool> offset_overridden{false};
std::atomic<int64_t> callback_offset_ns{0};

}  // namespace

uint64_t MonotonicNowNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

uint64_t ToCuptiTime(uint64_t monotonic_ns) {
  int64_t offset = offset_overridden.load(std::memory_order_acquire)
                       ? callback_offset_ns.load(std::memory_order_relaxed)
                       : Config().clock_offset_ns;
  return static_cast<uint64_t>(static_cast<int64_t>(monotonic_ns) + offset);
}

uint64_t CuptiNowNs() { return ToCuptiTime(MonotonicNowNs()); }

void UseTimestampCallback(uint64_t (*callback)()) {
  if (callback == nullptr) {
    offset_overridden.store(false, std::memory_order_release);
    return;
  }
  uint64_t before = MonotonicNowNs();
  uint64_t theirs = callback();
  uint64_t after = MonotonicNowNs();
  int64_t mid = static_cast<int64_t>(before + (after - before) / 2);
  callback_offset_ns.store(static_cast<int64_t>(theirs) - mid, std::memory_order_relaxed);
  offset_overridden.store(true, std::memory_order_release);
}

}  // namespace simcupti
