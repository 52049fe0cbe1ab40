// The simulated communicator: one rank's view of a shared-memory segment plus the
// counters that keep its protocol state in step with its peers.
#pragma once

#include <nccl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "testdata/sim/nccl/shm_segment.h"
#include "testdata/sim/nccl/unique_id.h"

// The opaque type nccl.h declares (typedef struct ncclComm* ncclComm_t).
struct ncclComm {
  int rank = 0;
  int nranks = 0;
  int device = 0;
  // True for communicators of ncclCommInitAll, whose kernels go to their own device
  // rather than the caller's current one.
  bool owns_device_switch = false;
  uint64_t comm_hash = 0;  // hash of the unique id, identical on every rank
  std::unique_ptr<simnccl::ShmSegment> segment;
  // The id this communicator was made from, and how many communicators ncclCommSplit /
  // ncclCommShrink derived from it so far (every rank calls them in the same order, so
  // the n-th derived id is the same on every rank: comm_derive.h).
  simnccl::UniqueIdContents unique_id;
  uint64_t derived_count = 0;

  // Collective rounds this rank completed; round numbers are global to the segment.
  uint64_t rounds_done = 0;

  // Point-to-point bookkeeping, indexed by peer: ops started in program order and ops
  // completed, and the cumulative chunk counts of the pair's mailbox.
  std::vector<uint64_t> sends_started, sends_completed, send_chunks;
  std::vector<uint64_t> recvs_started, recvs_completed, recv_chunks;

  // A failed exchange leaves the protocol counters out of step with the peers, so the
  // first error sticks: every later call on this communicator returns it.
  ncclResult_t sticky_error = ncclSuccess;
  std::string last_error;
};

namespace simnccl {

// Maps the segment, announces this rank and, when `wait_for_peers`, waits (bounded)
// until all ranks joined. ncclCommInitAll joins all ranks first and waits afterwards.
ncclResult_t CreateComm(const ncclUniqueId& id, int nranks, int rank, int device, ncclComm_t* out,
                        std::string* error);
ncclResult_t WaitForAllRanksJoined(ncclComm_t comm);

// Marks the rank destroyed (or aborted, which peers treat as a remote error) and frees it.
void ReleaseComm(ncclComm_t comm, bool aborted);

// Records an error on the communicator (sticky) and in the thread's last-error text.
ncclResult_t FailComm(ncclComm_t comm, ncclResult_t result, const std::string& message);

}  // namespace simnccl
