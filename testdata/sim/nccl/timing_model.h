// How long a simulated NCCL kernel runs: a launch cost, a per-step latency for each
// algorithm step of a ring, and the bytes each rank moves over the bus, using the
// nccl-tests bus-bandwidth factors (doc/PERFORMANCE.md):
//   AllReduce 2(n-1)/n; AllGather, ReduceScatter, AlltoAll, Gather and Scatter (n-1)/n
//   of S = count*e*n; Broadcast, Reduce, Send/Recv 1.
// So a busbw computed from the simulated kernel time by nccl-tests' formula comes out as
// SIM_NCCL_BUS_BW_GBPS for large messages. SIM_TIME_SCALE of the runtime applies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "testdata/sim/nccl/op_description.h"

namespace simnccl {

// The part of a kernel's duration contributed by one op, without the launch cost.
uint64_t OpCostNs(Func func, size_t algorithm_bytes, int nranks);

// Duration of one kernel running all of `ops` on a communicator of `nranks`.
uint64_t KernelDurationNs(const std::vector<const OpDescription*>& ops, int nranks);

}  // namespace simnccl
