#include "testdata/sim/nccl/bounded_wait.h"

#include <sched.h>
#include <time.h>

#include <algorithm>

namespace simnccl {
namespace {

constexpr uint32_t kSpinPolls = 64;
constexpr uint32_t kYieldPolls = 256;
constexpr uint64_t kMaxSleepNs = 200 * 1000;
constexpr uint64_t kPeerCheckIntervalNs = 20 * 1000 * 1000;

}  // namespace

uint64_t MonotonicNowNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

BoundedWait::BoundedWait(uint64_t timeout_ns)
    : timeout_ns_(timeout_ns),
      last_progress_ns_(MonotonicNowNs()),
      last_peer_check_ns_(last_progress_ns_) {}

void BoundedWait::Progressed() {
  last_progress_ns_ = MonotonicNowNs();
  last_peer_check_ns_ = last_progress_ns_;
  idle_polls_ = 0;
}

void BoundedWait::Pause() {
  ++idle_polls_;
  if (idle_polls_ < kSpinPolls) return;
  if (idle_polls_ < kYieldPolls) {
    sched_yield();
    return;
  }
  const uint64_t sleep_ns =
      std::min<uint64_t>(kMaxSleepNs, 1000ull * (idle_polls_ - kYieldPolls + 1));
  timespec pause{0, static_cast<long>(sleep_ns)};
  nanosleep(&pause, nullptr);
}

bool BoundedWait::Expired() const { return StalledNs() > timeout_ns_; }

uint64_t BoundedWait::StalledNs() const { return MonotonicNowNs() - last_progress_ns_; }

bool BoundedWait::TimeToCheckPeers() {
  const uint64_t now = MonotonicNowNs();
  if (now - last_peer_check_ns_ < kPeerCheckIntervalNs) return false;
  last_peer_check_ns_ = now;
  return true;
}

}  // namespace simnccl
