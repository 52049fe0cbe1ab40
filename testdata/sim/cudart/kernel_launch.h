// The one launch path shared by every runtime launch entry point.
#ifndef PROF_TESTDATA_SIM_CUDART_KERNEL_LAUNCH_H_
#define PROF_TESTDATA_SIM_CUDART_KERNEL_LAUNCH_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "testdata/sim/cudart/runtime_state.h"

namespace sim {

struct KernelLaunch {
  const void* function;  // registered host stub
  dim3 grid;
  dim3 block;
  size_t dynamic_shared_memory;
  cudaStream_t stream;
  NullStream null_stream;
};

// Traces the call as `api_name`, validates like the real runtime
// (cudaErrorInvalidDeviceFunction for an unregistered pointer, cudaErrorInvalidConfiguration
// for empty or oversized grids/blocks, cudaErrorInvalidResourceHandle for a bad stream) and
// enqueues the kernel with the model's duration.
cudaError_t LaunchKernel(const KernelLaunch& launch, uint32_t cbid, const char* api_name,
                         const void* params);

// Grid/block limits of the simulated device.
bool ValidLaunchConfiguration(dim3 grid, dim3 block);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_KERNEL_LAUNCH_H_
