// The calling thread's ncclGroupStart/ncclGroupEnd nesting. Inside a group, calls only
// queue their op; the outermost ncclGroupEnd runs the queue (group_engine.h). Outside a
// group a call is a group of one.
#pragma once

#include <nccl.h>

#include <memory>

#include "testdata/sim/nccl/pending_op.h"

namespace simnccl {

ncclResult_t SubmitOp(std::unique_ptr<PendingOp> op);
ncclResult_t BeginGroup();
ncclResult_t EndGroup();

}  // namespace simnccl
