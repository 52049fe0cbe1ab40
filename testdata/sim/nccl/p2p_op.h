// ncclSend / ncclRecv over the mailbox of the ordered pair (sender, receiver).
// Both sides first publish their arrival time under their op's sequence number (the
// k-th send from A to B matches the k-th receive on B from A, as NCCL requires), then
// the sender posts chunks one at a time and the receiver acknowledges each. The sender
// finishes only after the last acknowledgement, so the next op on the pair can never
// overwrite an arrival time or a chunk that is still being read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "testdata/sim/nccl/pending_op.h"

namespace simnccl {

class P2pOp : public PendingOp {
 public:
  // Takes the op's place in the pair's order (sequence number and chunk range) now, at
  // the call, so ops issued in program order match the peer's ops in program order.
  P2pOp(ncclComm_t comm, const OpDescription& desc);
  StepStatus Step() override;

 private:
  enum class Phase { kWaitTurn, kWaitPeer, kTransfer, kWaitLastAck, kDone };

  bool is_send() const { return desc_.func == Func::kSend; }
  MailboxHeader* mailbox() const;
  bool TryStart();
  bool TryMeetPeer();
  bool TryTransferChunk();

  uint64_t op_seq_;       // 1-based position among this pair's ops in this direction
  uint64_t first_chunk_;  // cumulative chunk number of this op's first chunk
  uint64_t chunk_count_;
  uint64_t chunks_done_ = 0;
  size_t total_bytes_;
  Phase phase_ = Phase::kWaitTurn;
};

}  // namespace simnccl
