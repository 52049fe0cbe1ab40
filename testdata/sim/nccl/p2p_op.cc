#include "testdata/sim/nccl/p2p_op.h"

#include <algorithm>
#include <cstring>

#include "testdata/sim/nccl/datatypes.h"

namespace simnccl {

P2pOp::P2pOp(ncclComm_t comm, const OpDescription& desc) : PendingOp(comm, desc) {
  const int peer = desc.root_or_peer;
  total_bytes_ = desc.count * ElementSize(desc.datatype);
  const size_t capacity = comm->segment->layout().mailbox_bytes;
  chunk_count_ = std::max<uint64_t>(1, (total_bytes_ + capacity - 1) / capacity);
  auto& started = is_send() ? comm->sends_started : comm->recvs_started;
  auto& chunks = is_send() ? comm->send_chunks : comm->recv_chunks;
  op_seq_ = ++started[peer];
  first_chunk_ = chunks[peer] + 1;
  chunks[peer] += chunk_count_;
  blocking_peer_ = peer;
}

MailboxHeader* P2pOp::mailbox() const {
  const int peer = desc_.root_or_peer;
  return is_send() ? comm_->segment->mailbox_header(comm_->rank, peer)
                   : comm_->segment->mailbox_header(peer, comm_->rank);
}

// An op may only publish its arrival once the previous op in the same direction with
// the same peer is complete; otherwise the peer might read the wrong arrival time.
bool P2pOp::TryStart() {
  const auto& completed = is_send() ? comm_->sends_completed : comm_->recvs_completed;
  if (completed[desc_.root_or_peer] + 1 != op_seq_) return false;
  MailboxHeader* box = mailbox();
  auto& my_arrival = is_send() ? box->send_arrival_ns : box->recv_arrival_ns;
  auto& my_seq = is_send() ? box->send_op_seq : box->recv_op_seq;
  my_arrival.store(arrival_ns_, std::memory_order_relaxed);
  my_seq.store(op_seq_, std::memory_order_release);
  return true;
}

bool P2pOp::TryMeetPeer() {
  MailboxHeader* box = mailbox();
  const auto& peer_seq = is_send() ? box->recv_op_seq : box->send_op_seq;
  if (peer_seq.load(std::memory_order_acquire) < op_seq_) return false;
  const auto& peer_arrival = is_send() ? box->recv_arrival_ns : box->send_arrival_ns;
  not_before_ns_ = std::max(arrival_ns_, peer_arrival.load(std::memory_order_relaxed));
  return true;
}

bool P2pOp::TryTransferChunk() {
  MailboxHeader* box = mailbox();
  const uint64_t chunk = first_chunk_ + chunks_done_;
  const size_t capacity = comm_->segment->layout().mailbox_bytes;
  const size_t offset = chunks_done_ * capacity;
  const int peer = desc_.root_or_peer;
  if (is_send()) {
    if (box->chunks_acked.load(std::memory_order_acquire) + 1 < chunk) return false;
    const size_t bytes = std::min(capacity, total_bytes_ - std::min(total_bytes_, offset));
    std::memcpy(comm_->segment->mailbox_data(comm_->rank, peer),
                static_cast<const unsigned char*>(desc_.sendbuff) + offset, bytes);
    box->chunk_bytes.store(bytes, std::memory_order_relaxed);
    box->chunks_posted.store(chunk, std::memory_order_release);
  } else {
    if (box->chunks_posted.load(std::memory_order_acquire) < chunk) return false;
    // The sender's size wins inside the receiver's buffer bounds (mismatched counts are
    // a usage error in NCCL too; this at least never writes out of bounds).
    const size_t room = total_bytes_ - std::min(total_bytes_, offset);
    const size_t bytes = std::min<size_t>(room, box->chunk_bytes.load(std::memory_order_relaxed));
    std::memcpy(static_cast<unsigned char*>(desc_.recvbuff) + offset,
                comm_->segment->mailbox_data(peer, comm_->rank), bytes);
    box->chunks_acked.store(chunk, std::memory_order_release);
  }
  ++chunks_done_;
  return true;
}

StepStatus P2pOp::Step() {
  bool progressed = false;
  if (phase_ == Phase::kWaitTurn && TryStart()) phase_ = Phase::kWaitPeer, progressed = true;
  if (phase_ == Phase::kWaitPeer && TryMeetPeer()) phase_ = Phase::kTransfer, progressed = true;
  while (phase_ == Phase::kTransfer && TryTransferChunk()) {
    progressed = true;
    if (chunks_done_ == chunk_count_) phase_ = is_send() ? Phase::kWaitLastAck : Phase::kDone;
  }
  if (phase_ == Phase::kWaitLastAck &&
      mailbox()->chunks_acked.load(std::memory_order_acquire) >= first_chunk_ + chunk_count_ - 1) {
    phase_ = Phase::kDone;
    progressed = true;
  }
  if (phase_ == Phase::kDone) {
    auto& completed = is_send() ? comm_->sends_completed : comm_->recvs_completed;
    completed[desc_.root_or_peer] = op_seq_;
    return StepStatus::kDone;
  }
  return progressed ? StepStatus::kProgressed : StepStatus::kBlocked;
}

}  // namespace simnccl
