// An NCCL operation being executed as a non-blocking state machine. The group engine
// (group_engine.h) steps every pending op of a group in turn until all are done, so one
// thread can drive several ranks (ncclCommInitAll) and grouped send/recv pairs progress
// together instead of deadlocking.
#pragma once

#include <cstdint>

#include "testdata/sim/nccl/comm.h"
#include "testdata/sim/nccl/op_description.h"

namespace simnccl {

enum class StepStatus { kBlocked, kProgressed, kDone };

class PendingOp {
 public:
  PendingOp(ncclComm_t comm, const OpDescription& desc) : comm_(comm), desc_(desc) {}
  virtual ~PendingOp() = default;

  // Does as much as possible without waiting. kBlocked: a peer has not caught up yet.
  virtual StepStatus Step() = 0;

  // The peer that the last kBlocked step waited for, for liveness checks and messages.
  int blocking_peer() const { return blocking_peer_; }

  ncclComm_t comm() const { return comm_; }
  const OpDescription& desc() const { return desc_; }

  // This rank's arrival (when its stream could start the kernel), set before stepping.
  void set_arrival_ns(uint64_t arrival_ns) { arrival_ns_ = arrival_ns; }

  // Latest arrival over every rank taking part; valid once the op is done.
  uint64_t not_before_ns() const { return not_before_ns_; }

 protected:
  ncclComm_t comm_;
  OpDescription desc_;
  uint64_t arrival_ns_ = 0;
  uint64_t not_before_ns_ = 0;
  int blocking_peer_ = -1;
};

}  // namespace simnccl
