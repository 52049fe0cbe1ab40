// Opt-in hang injection (README "Fault injection"): one rank stops just before its k-th
// collective on the world communicator, the way a real rank stalls in its data loader,
// loses its NIC or dies of a Python exception, so every other rank blocks inside
// collective #k until the simulated NCCL's timeout (SIM_NCCL_TIMEOUT_MS) ends the wait.
//   --stop-rank R       the rank that stops (-1, the default: none)
//   --stop-before K     before its K-th world collective (1-based, as the agent numbers
//                       them: the k-th call on a communicator has sequence number k)
//   --stop-how MODE     hang: sleep until a signal ends the process (SIGTERM from the
//                       launcher, like torchrun's after another rank failed);
//                       exit: leave at once with status 3 through exit() (atexit runs)
// And a mismatched collective, as a rank whose code took another branch makes:
//   --mismatch-rank R   the rank whose world collective differs (-1, the default: none)
//   --mismatch-at K     its K-th world collective is a broadcast (root 0, same count)
//                       where the others all-reduce: same sequence number, other op
#pragma once

#include <cstdint>

#include "testdata/workloads/common/flags.h"

namespace workloads {

class CollectiveStop {
 public:
  // Reads the flags above; exits with status 2 on a bad value.
  CollectiveStop(const Flags& flags, int rank);

  // Call before every collective on the world communicator; never returns at the
  // configured one.
  void BeforeWorldCollective();
  // After BeforeWorldCollective: whether this collective is to be the mismatched one.
  bool Mismatched() const { return mismatch_at_ > 0 && issued_ == mismatch_at_; }

 private:
  bool armed_ = false;
  bool exit_ = false;
  int64_t stop_before_ = 0;
  int64_t issued_ = 0;
  int64_t mismatch_at_ = 0;  // 0: none on this rank
};

}  // namespace workloads
