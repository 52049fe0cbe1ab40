#include "testdata/sim/nccl/comm.h"

#include <unistd.h>

#include "testdata/sim/nccl/bounded_wait.h"
#include "testdata/sim/nccl/env_config.h"
#include "testdata/sim/nccl/last_error.h"
#include "testdata/sim/nccl/unique_id.h"

namespace simnccl {
namespace {

// The first rank to arrive records nranks; a rank that disagrees is a usage error that
// would otherwise corrupt the layout everyone computed.
bool ClaimRankCount(SegmentHeader* header, int nranks) {
  uint32_t expected = 0;
  if (header->nranks.compare_exchange_strong(expected, static_cast<uint32_t>(nranks))) {
    return true;
  }
  return expected == static_cast<uint32_t>(nranks);
}

void ResizePeerCounters(ncclComm* comm) {
  const size_t n = static_cast<size_t>(comm->nranks);
  for (auto* counters : {&comm->sends_started, &comm->sends_completed, &comm->send_chunks,
                         &comm->recvs_started, &comm->recvs_completed, &comm->recv_chunks}) {
    counters->assign(n, 0);
  }
}

}  // namespace

ncclResult_t CreateComm(const ncclUniqueId& id, int nranks, int rank, int device, ncclComm_t* out,
                        std::string* error) {
  UniqueIdContents contents;
  if (!DecodeUniqueId(id, &contents)) {
    *error = "ncclUniqueId was not produced by ncclGetUniqueId";
    return ncclInvalidArgument;
  }
  auto comm = std::make_unique<ncclComm>();
  comm->rank = rank;
  comm->nranks = nranks;
  comm->device = device;
  comm->comm_hash = HashUniqueId(id);
  comm->unique_id = contents;
  comm->segment = std::make_unique<ShmSegment>();
  const SegmentLayout layout =
      SegmentLayout::Compute(nranks, contents.slot_bytes, contents.mailbox_bytes);
  if (!comm->segment->OpenOrCreate(contents.segment_name, layout, error)) {
    return ncclSystemError;
  }
  if (!ClaimRankCount(comm->segment->header(), nranks)) {
    *error =
        "ranks disagree on the communicator size (this rank says " + std::to_string(nranks) + ")";
    return ncclInvalidUsage;
  }
  RankSlotHeader* slot = comm->segment->rank_header(rank);
  uint32_t absent = kRankAbsent;
  if (!slot->state.compare_exchange_strong(absent, kRankJoined)) {
    *error = "rank " + std::to_string(rank) + " joined this communicator twice";
    return ncclInvalidUsage;
  }
  slot->pid.store(static_cast<int32_t>(getpid()), std::memory_order_release);
  ResizePeerCounters(comm.get());
  *out = comm.release();
  return ncclSuccess;
}

ncclResult_t WaitForAllRanksJoined(ncclComm_t comm) {
  BoundedWait wait(ConfiguredTimeoutNs());
  for (int peer = 0; peer < comm->nranks; ++peer) {
    RankSlotHeader* slot = comm->segment->rank_header(peer);
    while (slot->state.load(std::memory_order_acquire) == kRankAbsent) {
      if (wait.Expired()) {
        comm->segment->Unlink();  // nobody else is coming; leave nothing in /dev/shm
        return FailComm(
            comm, ncclSystemError,
            "timed out waiting for rank " + std::to_string(peer) + " to join the communicator");
      }
      wait.Pause();
    }
    // A peer that joined may already be done and gone by now (fast ranks finish their
    // work and destroy their communicator), so having joined is all init asks for.
  }
  // Everyone has the segment mapped now, so its name is no longer needed; removing it
  // here means no file is left in /dev/shm even if ranks crash later.
  comm->segment->Unlink();
  return ncclSuccess;
}

void ReleaseComm(ncclComm_t comm, bool aborted) {
  if (comm == nullptr) return;
  comm->segment->rank_header(comm->rank)
      ->state.store(aborted ? kRankAborted : kRankDestroyed, std::memory_order_release);
  delete comm;
}

ncclResult_t FailComm(ncclComm_t comm, ncclResult_t result, const std::string& message) {
  if (comm != nullptr) {
    if (comm->sticky_error == ncclSuccess) comm->sticky_error = result;
    comm->last_error = message;
  }
  SetThreadLastError(message);
  return result;
}

}  // namespace simnccl
