#include "testdata/sim/nccl/group_engine.h"

#include <sim/sim_ext.h>

#include <algorithm>
#include <string>

#include "testdata/sim/nccl/bounded_wait.h"
#include "testdata/sim/nccl/env_config.h"
#include "testdata/sim/nccl/kernel_launcher.h"
#include "testdata/sim/nccl/peer_liveness.h"

namespace simnccl {
namespace {

// A rank "arrives" when its stream could start the kernel: not before now (the launch)
// and not before the work already queued on the stream.
void StampArrivals(const std::vector<std::unique_ptr<PendingOp>>& ops) {
  const uint64_t now = simNowNs();
  for (const auto& op : ops) {
    op->set_arrival_ns(std::max(now, simStreamReadyTimeNs(op->desc().stream)));
  }
}

ncclResult_t FirstStickyError(const std::vector<std::unique_ptr<PendingOp>>& ops) {
  for (const auto& op : ops) {
    if (op->comm()->sticky_error != ncclSuccess) return op->comm()->sticky_error;
  }
  return ncclSuccess;
}

// One pass over the unfinished ops: the first unfinished collective of each
// communicator, and every unfinished send/recv. Returns whether anything moved.
bool StepOnce(const std::vector<std::unique_ptr<PendingOp>>& ops, std::vector<bool>* done) {
  bool progressed = false;
  std::vector<ncclComm_t> comms_with_blocked_collective;
  for (size_t i = 0; i < ops.size(); ++i) {
    if ((*done)[i]) continue;
    PendingOp& op = *ops[i];
    const bool collective = !IsPointToPoint(op.desc().func);
    auto& blocked = comms_with_blocked_collective;
    if (collective && std::find(blocked.begin(), blocked.end(), op.comm()) != blocked.end()) {
      continue;  // an earlier collective of this communicator is still running
    }
    const StepStatus status = op.Step();
    if (status != StepStatus::kBlocked) progressed = true;
    if (status == StepStatus::kDone) {
      (*done)[i] = true;
    } else if (collective) {
      blocked.push_back(op.comm());
    }
  }
  return progressed;
}

// Fails every communicator involved; returns `result`.
ncclResult_t FailAll(const std::vector<std::unique_ptr<PendingOp>>& ops, ncclResult_t result,
                     const std::string& message) {
  for (const auto& op : ops) FailComm(op->comm(), result, message);
  return result;
}

// Empty while every peer the unfinished ops wait for can still make progress.
std::string DeadPeerOf(const std::vector<std::unique_ptr<PendingOp>>& ops,
                       const std::vector<bool>& done) {
  for (size_t i = 0; i < ops.size(); ++i) {
    if (done[i] || ops[i]->blocking_peer() < 0) continue;
    std::string reason = PeerDeathReason(ops[i]->comm(), ops[i]->blocking_peer());
    if (!reason.empty()) return reason;
  }
  return "";
}

std::string TimeoutMessage(const std::vector<std::unique_ptr<PendingOp>>& ops,
                           const std::vector<bool>& done) {
  for (size_t i = 0; i < ops.size(); ++i) {
    if (done[i]) continue;
    return std::string("timed out after SIM_NCCL_TIMEOUT_MS in ") + FuncName(ops[i]->desc().func) +
           " on rank " + std::to_string(ops[i]->comm()->rank) + " waiting for rank " +
           std::to_string(ops[i]->blocking_peer());
  }
  return "timed out";
}

}  // namespace

namespace {

ncclResult_t Exchange(const std::vector<std::unique_ptr<PendingOp>>& ops) {
  const ncclResult_t sticky = FirstStickyError(ops);
  if (sticky != ncclSuccess) return sticky;
  StampArrivals(ops);
  std::vector<bool> done(ops.size(), false);
  BoundedWait wait(ConfiguredTimeoutNs());
  while (std::find(done.begin(), done.end(), false) != done.end()) {
    if (StepOnce(ops, &done)) {
      wait.Progressed();
      continue;
    }
    if (wait.TimeToCheckPeers()) {
      const std::string dead = DeadPeerOf(ops, done);
      if (!dead.empty()) return FailAll(ops, ncclRemoteError, dead);
    }
    if (wait.Expired()) return FailAll(ops, ncclSystemError, TimeoutMessage(ops, done));
    wait.Pause();
  }
  return ncclSuccess;
}

}  // namespace

ncclResult_t RunOpsToCompletion(std::vector<std::unique_ptr<PendingOp>> ops) {
  if (ops.empty()) return ncclSuccess;
  const ncclResult_t exchanged = Exchange(ops);
  return exchanged == ncclSuccess ? LaunchFusedKernels(ops) : exchanged;
}

ncclResult_t ExchangeWithoutKernels(std::vector<std::unique_ptr<PendingOp>> ops) {
  return ops.empty() ? ncclSuccess : Exchange(ops);
}

}  // namespace simnccl
