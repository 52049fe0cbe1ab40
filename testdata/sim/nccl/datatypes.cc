#include "testdata/sim/nccl/datatypes.h"

#include <algorithm>
#include <cstdint>

namespace simnccl {
namespace {

template <typename T>
T Combine(ncclRedOp_t op, T a, T b) {
  switch (op) {
    case ncclProd: return static_cast<T>(a * b);
    case ncclMax: return std::max(a, b);
    case ncclMin: return std::min(a, b);
    default: return static_cast<T>(a + b);  // ncclSum, and ncclAvg before the division
  }
}

template <typename T>
void ReduceTyped(ncclRedOp_t op, const void* const* inputs, int n, size_t count, void* out) {
  T* result = static_cast<T*>(out);
  for (size_t i = 0; i < count; ++i) {
    T accumulator = static_cast<const T*>(inputs[0])[i];
    for (int rank = 1; rank < n; ++rank) {
      accumulator = Combine<T>(op, accumulator, static_cast<const T*>(inputs[rank])[i]);
    }
    if (op == ncclAvg) accumulator = static_cast<T>(accumulator / static_cast<T>(n));
    result[i] = accumulator;
  }
}

}  // namespace

size_t ElementSize(ncclDataType_t type) {
  switch (type) {
    case ncclInt8:
    case ncclUint8:
    case ncclFloat8e4m3:
    case ncclFloat8e5m2: return 1;
    case ncclFloat16:
    case ncclBfloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    case ncclInt64:
    case ncclUint64:
    case ncclFloat64: return 8;
    default: return 0;
  }
}

bool IsFloatingType(ncclDataType_t type) {
  return type == ncclFloat16 || type == ncclBfloat16 || type == ncclFloat32 ||
         type == ncclFloat64 || type == ncclFloat8e4m3 || type == ncclFloat8e5m2;
}

bool CanReduce(ncclDataType_t type, ncclRedOp_t op) {
  if (op < ncclSum || op > ncclAvg) return false;
  switch (type) {
    case ncclInt8:
    case ncclUint8:
    case ncclInt32:
    case ncclUint32:
    case ncclInt64:
    case ncclUint64:
    case ncclFloat32:
    case ncclFloat64: return true;
    default: return false;
  }
}

void Reduce(ncclDataType_t type, ncclRedOp_t op, const void* const* inputs, int n, size_t count,
            void* out) {
  switch (type) {
    case ncclInt8: ReduceTyped<int8_t>(op, inputs, n, count, out); break;
    case ncclUint8: ReduceTyped<uint8_t>(op, inputs, n, count, out); break;
    case ncclInt32: ReduceTyped<int32_t>(op, inputs, n, count, out); break;
    case ncclUint32: ReduceTyped<uint32_t>(op, inputs, n, count, out); break;
    case ncclInt64: ReduceTyped<int64_t>(op, inputs, n, count, out); break;
    case ncclUint64: ReduceTyped<uint64_t>(op, inputs, n, count, out); break;
    case ncclFloat32: ReduceTyped<float>(op, inputs, n, count, out); break;
    case ncclFloat64: ReduceTyped<double>(op, inputs, n, count, out); break;
    default: break;  // rejected earlier by CanReduce
  }
}

const char* DevKernelTypeName(ncclDataType_t type) {
  static const char* const kNames[] = {"i8",  "u8",  "i32", "u32",  "i64",    "u64",
                                       "f16", "f32", "f64", "bf16", "f8e4m3", "f8e5m2"};
  return (type >= 0 && type < ncclNumTypes) ? kNames[type] : "i8";
}

const char* LegacyKernelTypeName(ncclDataType_t type) {
  static const char* const kNames[] = {
      "int8_t", "uint8_t", "int32_t", "uint32_t",      "int64_t",       "uint64_t",
      "half",   "float",   "double",  "__nv_bfloat16", "__nv_fp8_e4m3", "__nv_fp8_e5m2"};
  return (type >= 0 && type < ncclNumTypes) ? kNames[type] : "int8_t";
}

}  // namespace simnccl
