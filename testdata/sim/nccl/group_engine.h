// Runs a set of pending ops (one ungrouped call, or everything queued between the
// outermost ncclGroupStart and ncclGroupEnd) to completion, then launches their kernels.
//
// Per communicator, collectives run one after the other in call order (every rank calls
// them in the same order) while send/recv ops all progress together, as NCCL lets them.
// Ops of different communicators progress together, so one thread can drive all ranks
// of ncclCommInitAll. Every wait is bounded: a dead, aborted or departed peer ends it
// with ncclRemoteError; no progress for SIM_NCCL_TIMEOUT_MS ends it with
// ncclSystemError. Either error sticks to the communicators involved.
#pragma once

#include <nccl.h>

#include <memory>
#include <vector>

#include "testdata/sim/nccl/pending_op.h"

namespace simnccl {

ncclResult_t RunOpsToCompletion(std::vector<std::unique_ptr<PendingOp>> ops);

// The data exchange only, with no kernel: what NCCL's bootstrap network does for
// ncclCommSplit (host buffers; nothing reaches the simulated device or CUPTI).
ncclResult_t ExchangeWithoutKernels(std::vector<std::unique_ptr<PendingOp>> ops);

}  // namespace simnccl
