// The one way this library waits for a peer: poll with a growing back-off, notice when
// nothing moved for too long, and say when it is time to look at the peers' liveness.
// No wait in the simulated NCCL is unbounded.
#pragma once

#include <cstdint>

namespace simnccl {

uint64_t MonotonicNowNs();

class BoundedWait {
 public:
  explicit BoundedWait(uint64_t timeout_ns);

  // Something moved: the no-progress clock and the back-off start over.
  void Progressed();

  // Nothing moved since the last call: spin briefly, then yield, then sleep (ranks often
  // outnumber cores, so a waiting rank must give its core to the one it waits for).
  void Pause();

  bool Expired() const;
  uint64_t StalledNs() const;

  // True about every 20 ms of stalling: the caller then checks whether peers are alive.
  bool TimeToCheckPeers();

 private:
  uint64_t timeout_ns_;
  uint64_t last_progress_ns_;
  uint64_t last_peer_check_ns_;
  uint32_t idle_polls_ = 0;
};

}  // namespace simnccl
