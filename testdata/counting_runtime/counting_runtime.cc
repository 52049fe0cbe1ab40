// A fake CUDA runtime + NCCL that does nothing but count the calls that reach it, so a
// test can load two (or three) distinct copies into one process and check that each
// caller's calls reached its own copy. Built several times (BUILD.bazel): as two shared
// libraries with their own soname and symbol version node (like libcudart.so.12 and
// libcudart.so.13 wheels side by side), and statically inside static_exporter.so.
// Thread-safe: the counters are atomics.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <atomic>
#include <cstdlib>

#include "testdata/counting_runtime/counting_runtime.h"

#define COUNTING_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Counters {
  std::atomic<int> registrations{0}, launches{0}, foreign_launches{0}, synchronizes{0}, mallocs{0},
      frees{0}, device_queries{0}, all_reduces{0};
};
Counters g_counters;

constexpr int kMaxKernels = 64;
std::atomic<const void*> g_kernels[kMaxKernels];  // host stubs registered with this copy
std::atomic<int> g_kernel_count{0};

bool Registered(const void* function) {
  const int count = g_kernel_count.load(std::memory_order_acquire);
  for (int i = 0; i < count && i < kMaxKernels; ++i) {
    if (g_kernels[i].load(std::memory_order_acquire) == function) return true;
  }
  return false;
}

}  // namespace

COUNTING_EXPORT void __cudaRegisterFunction(void**, const char* host_function, char*, const char*,
                                            int, uint3*, uint3*, dim3*, dim3*, int*) {
  g_counters.registrations++;
  const int index = g_kernel_count.fetch_add(1);
  if (index < kMaxKernels) g_kernels[index].store(host_function, std::memory_order_release);
}

COUNTING_EXPORT cudaError_t cudaLaunchKernel(const void* function, dim3, dim3, void**, size_t,
                                             cudaStream_t) {
  if (!Registered(function)) {
    g_counters.foreign_launches++;
    return cudaErrorInvalidDeviceFunction;
  }
  g_counters.launches++;
  return cudaSuccess;
}

COUNTING_EXPORT cudaError_t cudaDeviceSynchronize() {
  g_counters.synchronizes++;
  return cudaSuccess;
}

COUNTING_EXPORT cudaError_t cudaGetDevice(int* device) {
  g_counters.device_queries++;
  if (device) *device = 0;
  return cudaSuccess;
}

COUNTING_EXPORT cudaError_t cudaMalloc(void** pointer, size_t size) {
  g_counters.mallocs++;
  *pointer = std::malloc(size ? size : 1);
  return *pointer ? cudaSuccess : cudaErrorMemoryAllocation;
}

COUNTING_EXPORT cudaError_t cudaFree(void* pointer) {
  g_counters.frees++;
  std::free(pointer);
  return cudaSuccess;
}

COUNTING_EXPORT ncclResult_t ncclAllReduce(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t,
                                           ncclComm_t, cudaStream_t) {
  g_counters.all_reduces++;
  return ncclSuccess;
}

COUNTING_EXPORT const CountingRuntimeCounts* countingRuntimeCounts() {
  static CountingRuntimeCounts snapshot;
  snapshot =
      CountingRuntimeCounts{g_counters.registrations.load(),    g_counters.launches.load(),
                            g_counters.foreign_launches.load(), g_counters.synchronizes.load(),
                            g_counters.mallocs.load(),          g_counters.frees.load(),
                            g_counters.device_queries.load(),   g_counters.all_reduces.load()};
  return &snapshot;
}
