// Turns finished ops into kernels on the simulated device: ops of one group that share
// a communicator and a stream become one fused kernel (like NCCL), named and priced by
// kernel_names.h / timing_model.h, that cannot start before the last rank arrived.
// Launches go through simLaunchNamedKernel, which CUPTI sees and cudart interposers do
// not, like the launches of real NCCL and its statically linked cudart.
#pragma once

#include <nccl.h>

#include <memory>
#include <vector>

#include <sim/sim_nccl_ext.h>

#include "testdata/sim/nccl/pending_op.h"

namespace simnccl {

// Launches the kernels for `ops` (all done) and remembers them as the thread's last
// launches. Returns ncclUnhandledCudaError if the runtime refused a launch.
ncclResult_t LaunchFusedKernels(const std::vector<std::unique_ptr<PendingOp>>& ops);

// The calling thread's most recent launches (for simNcclLastLaunches).
const std::vector<simNcclLaunchInfo>& ThreadLastLaunches();

}  // namespace simnccl
