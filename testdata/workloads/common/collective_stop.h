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
// And a hang on the GPU, whose host calls all return as real NCCL's do:
//   --stuck-rank R      the rank whose GPU work stalls (-1, the default: none)
//   --stuck-at K        just before its K-th world collective, a kernel that does not
//                       finish for --stuck-ms (default 3600000: never, for a test) is
//                       enqueued on the collective's stream, like a deadlocked kernel. So
//                       that rank's collective #K is enqueued and never starts; the
//                       simulated NCCL exchanges when each rank's stream can start it, so
//                       every other rank's #K starts and waits for it. The host calls go
//                       on until the first synchronization, which blocks. The stuck
//                       kernel is not in the truth file.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "testdata/workloads/common/flags.h"

namespace workloads {

class CollectiveStop {
 public:
  // Reads the flags above; exits with status 2 on a bad value.
  CollectiveStop(const Flags& flags, int rank);

  // Call before every collective on the world communicator, which goes to `stream`;
  // never returns at the configured stop.
  void BeforeWorldCollective(cudaStream_t stream);
  // After BeforeWorldCollective: whether this collective is to be the mismatched one.
  bool Mismatched() const { return mismatch_at_ > 0 && issued_ == mismatch_at_; }

 private:
  bool armed_ = false;
  bool exit_ = false;
  int64_t stop_before_ = 0;
  int64_t issued_ = 0;
  int64_t mismatch_at_ = 0;  // 0: none on this rank
  int64_t stuck_at_ = 0;     // 0: none on this rank
  int64_t stuck_ms_ = 0;
};

}  // namespace workloads
