// Collectives over the shared segment, executed in rounds. In round g every rank
//   1. waits until all ranks consumed round g-1 (so its slot may be overwritten),
//   2. copies its contribution and its arrival time into its own slot, posts g,
//   3. waits until all ranks posted g, then computes its output from all slots in rank
//      order (so every rank gets bit-identical results) and marks g consumed.
// Messages larger than a slot take several rounds. Every rank sees every slot, which is
// simpler than a ring and just as correct; the timing model, not this exchange, decides
// how long the kernel takes.
#pragma once

#include <cstddef>

#include "testdata/sim/nccl/pending_op.h"

namespace simnccl {

class CollectiveOp : public PendingOp {
 public:
  CollectiveOp(ncclComm_t comm, const OpDescription& desc);
  StepStatus Step() override;

 private:
  enum class Phase { kWaitSlotsFree, kWaitPosted };

  size_t ElementsPerRound() const;
  bool PostsPiecePerRank() const;
  bool AllPeersReached(uint64_t round, bool posted_counter);
  void PostContribution();
  void ConsumeRound();

  size_t element_size_;
  size_t rounds_total_;
  size_t rounds_finished_ = 0;
  Phase phase_ = Phase::kWaitSlotsFree;
};

}  // namespace simnccl
