#include "testdata/sim/nccl/collective_op.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "testdata/sim/nccl/datatypes.h"

namespace simnccl {
namespace {

const unsigned char* Bytes(const void* pointer) {
  return static_cast<const unsigned char*>(pointer);
}
unsigned char* Bytes(void* pointer) { return static_cast<unsigned char*>(pointer); }

}  // namespace

CollectiveOp::CollectiveOp(ncclComm_t comm, const OpDescription& desc)
    : PendingOp(comm, desc), element_size_(ElementSize(desc.datatype)) {
  const size_t per_round = ElementsPerRound();
  // Even an empty message takes one round: that is where arrival times are exchanged.
  rounds_total_ = std::max<size_t>(1, (desc.count + per_round - 1) / per_round);
}

size_t CollectiveOp::ElementsPerRound() const {
  const size_t slot_bytes = comm_->segment->layout().slot_bytes;
  // ReduceScatter, AlltoAll and Scatter post one piece per destination rank each round.
  const size_t pieces = PostsPiecePerRank() ? comm_->nranks : 1;
  return std::max<size_t>(1, slot_bytes / (element_size_ * pieces));
}

bool CollectiveOp::PostsPiecePerRank() const {
  return desc_.func == Func::kReduceScatter || desc_.func == Func::kAllToAll ||
         desc_.func == Func::kScatter;
}

bool CollectiveOp::AllPeersReached(uint64_t round, bool posted_counter) {
  for (int peer = 0; peer < comm_->nranks; ++peer) {
    const RankSlotHeader* slot = comm_->segment->rank_header(peer);
    const auto& counter = posted_counter ? slot->posted : slot->consumed;
    if (counter.load(std::memory_order_acquire) < round) {
      blocking_peer_ = peer;
      return false;
    }
  }
  return true;
}

void CollectiveOp::PostContribution() {
  const size_t per_round = ElementsPerRound();
  const size_t offset = rounds_finished_ * per_round;
  const size_t elements = std::min(per_round, desc_.count - std::min(desc_.count, offset));
  unsigned char* slot = comm_->segment->slot_data(comm_->rank);
  const unsigned char* send = Bytes(desc_.sendbuff);
  switch (desc_.func) {
    case Func::kBroadcast:
      if (comm_->rank != desc_.root_or_peer) break;
      [[fallthrough]];
    case Func::kAllReduce:
    case Func::kReduce:
    case Func::kAllGather:
    case Func::kGather:
      std::memcpy(slot, send + offset * element_size_, elements * element_size_);
      break;
    case Func::kScatter:
      if (comm_->rank != desc_.root_or_peer) break;
      [[fallthrough]];
    case Func::kReduceScatter:
    case Func::kAllToAll:
      for (int dest = 0; dest < comm_->nranks; ++dest) {
        std::memcpy(slot + dest * elements * element_size_,
                    send + (dest * desc_.count + offset) * element_size_, elements * element_size_);
      }
      break;
    default: break;
  }
  RankSlotHeader* header = comm_->segment->rank_header(comm_->rank);
  header->arrival_ns.store(arrival_ns_, std::memory_order_relaxed);
  header->posted.store(comm_->rounds_done + 1, std::memory_order_release);
}

void CollectiveOp::ConsumeRound() {
  const size_t per_round = ElementsPerRound();
  const size_t offset = rounds_finished_ * per_round;
  const size_t elements = std::min(per_round, desc_.count - std::min(desc_.count, offset));
  const int nranks = comm_->nranks;
  ShmSegment& segment = *comm_->segment;
  unsigned char* recv = Bytes(desc_.recvbuff);
  std::vector<const void*> inputs(nranks);
  for (int peer = 0; peer < nranks; ++peer) {
    if (rounds_finished_ == 0) {
      not_before_ns_ = std::max(not_before_ns_, segment.rank_header(peer)->arrival_ns.load());
    }
    const size_t piece = PostsPiecePerRank() ? comm_->rank * elements : 0;
    inputs[peer] = segment.slot_data(peer) + piece * element_size_;
  }
  switch (desc_.func) {
    case Func::kReduce:
      if (comm_->rank != desc_.root_or_peer) break;
      [[fallthrough]];
    case Func::kAllReduce:
    case Func::kReduceScatter:
      Reduce(desc_.datatype, desc_.redop, inputs.data(), nranks, elements,
             recv + offset * element_size_);
      break;
    case Func::kBroadcast:
      std::memmove(recv + offset * element_size_, inputs[desc_.root_or_peer],
                   elements * element_size_);
      break;
    case Func::kGather:
      if (comm_->rank != desc_.root_or_peer) break;
      [[fallthrough]];
    case Func::kAllGather:
    case Func::kAllToAll:  // the piece each peer addressed to this rank, in peer order
      for (int peer = 0; peer < nranks; ++peer) {
        std::memmove(recv + (peer * desc_.count + offset) * element_size_, inputs[peer],
                     elements * element_size_);
      }
      break;
    case Func::kScatter:
      std::memmove(recv + offset * element_size_, inputs[desc_.root_or_peer],
                   elements * element_size_);
      break;
    default: break;
  }
  comm_->rounds_done += 1;
  segment.rank_header(comm_->rank)->consumed.store(comm_->rounds_done, std::memory_order_release);
  rounds_finished_ += 1;
}

StepStatus CollectiveOp::Step() {
  bool progressed = false;
  while (rounds_finished_ < rounds_total_) {
    const uint64_t round = comm_->rounds_done + 1;
    if (phase_ == Phase::kWaitSlotsFree) {
      if (!AllPeersReached(round - 1, /*posted_counter=*/false)) break;
      PostContribution();
      phase_ = Phase::kWaitPosted;
      progressed = true;
    }
    if (!AllPeersReached(round, /*posted_counter=*/true)) break;
    ConsumeRound();
    phase_ = Phase::kWaitSlotsFree;
    progressed = true;
  }
  if (rounds_finished_ == rounds_total_) return StepStatus::kDone;
  return progressed ? StepStatus::kProgressed : StepStatus::kBlocked;
}

}  // namespace simnccl
