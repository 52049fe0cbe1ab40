// Element sizes, names and host-side reductions for ncclDataType_t / ncclRedOp_t.
// "Device" buffers of the simulated runtime are host-addressable, so reductions are
// plain loops over bytes.
#pragma once

#include <nccl.h>

#include <cstddef>

namespace simnccl {

// 0 for a value outside ncclDataType_t.
size_t ElementSize(ncclDataType_t type);

bool IsFloatingType(ncclDataType_t type);

// Whether Reduce() can compute `op` over `type` (built-in ops on 8/32/64-bit integers,
// float and double; half, bfloat16 and fp8 are only moved, never reduced).
bool CanReduce(ncclDataType_t type, ncclRedOp_t op);

// out[i] = op(inputs[0][i], ..., inputs[n-1][i]) for i < count, combining in rank order
// so that every rank computes bit-identical results. ncclAvg divides the sum by n
// (integer division for integer types, as NCCL does).
void Reduce(ncclDataType_t type, ncclRedOp_t op, const void* const* inputs, int n, size_t count,
            void* out);

// Short names as they appear in kernel names: "f32" / "float" etc.
const char* DevKernelTypeName(ncclDataType_t type);     // newer NCCL (>= 2.19)
const char* LegacyKernelTypeName(ncclDataType_t type);  // older NCCL (<= 2.18)

}  // namespace simnccl
