#include "testdata/workloads/common/collective_stop.h"

#include <sim/sim_ext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace workloads {

CollectiveStop::CollectiveStop(const Flags& flags, int rank) {
  const int64_t stop_rank = flags.Int("stop-rank");
  stop_before_ = flags.Int("stop-before");
  const std::string& how = flags.String("stop-how");
  if (how != "hang" && how != "exit") {
    std::fprintf(stderr, "--stop-how expects hang or exit, got '%s'\n", how.c_str());
    std::exit(2);
  }
  if (stop_rank >= 0 && stop_before_ < 1) {
    std::fprintf(stderr, "--stop-rank needs --stop-before K with K >= 1\n");
    std::exit(2);
  }
  armed_ = stop_rank == rank;
  exit_ = how == "exit";
  const int64_t mismatch_rank = flags.Int("mismatch-rank");
  const int64_t mismatch_at = flags.Int("mismatch-at");
  if (mismatch_rank >= 0 && mismatch_at < 1) {
    std::fprintf(stderr, "--mismatch-rank needs --mismatch-at K with K >= 1\n");
    std::exit(2);
  }
  if (mismatch_rank == rank) mismatch_at_ = mismatch_at;
  const int64_t stuck_rank = flags.Int("stuck-rank");
  if (stuck_rank >= 0 && (flags.Int("stuck-at") < 1 || flags.Int("stuck-ms") < 1)) {
    std::fprintf(stderr, "--stuck-rank needs --stuck-at K with K >= 1 and --stuck-ms >= 1\n");
    std::exit(2);
  }
  if (stuck_rank == rank) {
    stuck_at_ = flags.Int("stuck-at");
    stuck_ms_ = flags.Int("stuck-ms");
  }
}

void CollectiveStop::BeforeWorldCollective(cudaStream_t stream) {
  ++issued_;
  if (stuck_at_ > 0 && issued_ == stuck_at_) {
    std::fprintf(stderr, "rank's GPU work stalls %lld ms before world collective #%lld\n",
                 static_cast<long long>(stuck_ms_), static_cast<long long>(stuck_at_));
    const uint64_t duration_ns = static_cast<uint64_t>(stuck_ms_) * 1000000ull;
    if (simLaunchNamedKernel("flight_stuck_kernel", dim3(1), dim3(32), 0, stream, duration_ns, 0) !=
        cudaSuccess) {
      std::fprintf(stderr, "the simulator refused the stuck kernel\n");
      std::exit(2);
    }
  }
  if (!armed_ || issued_ != stop_before_) return;
  std::fprintf(stderr, "rank stops before world collective #%lld (%s)\n",
               static_cast<long long>(stop_before_), exit_ ? "exit" : "hang");
  std::fflush(stderr);
  if (exit_) std::exit(3);
  // pause() returns only when a handled signal arrives; under SIG_DFL a SIGTERM ends the
  // process, and under the agent its flush handler runs first and then ends it.
  for (;;) pause();
}

}  // namespace workloads
