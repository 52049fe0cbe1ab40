// The names real NCCL gives its kernels, as CUPTI reports them (demangled form), for
// both generations: NCCL >= 2.19 ("ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)", only
// some functions specialised, the rest in ncclDevKernel_Generic) and NCCL <= 2.18
// ("ncclKernel_AllReduce_RING_LL_Sum_float(...)"). SIM_NCCL_KERNEL_NAMES=legacy picks
// the older one.
#pragma once

#include <string>
#include <vector>

#include "testdata/sim/nccl/op_description.h"

namespace simnccl {

// Name of the one kernel that runs all of `ops` (ops fused by a group share a kernel).
std::string KernelNameFor(const std::vector<const OpDescription*>& ops, bool legacy);

}  // namespace simnccl
