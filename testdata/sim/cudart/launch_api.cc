// Kernel launches: cudaLaunchKernel(ExC) and CUDA 13's __cudaLaunchKernel, with their
// per-thread-default-stream variants. A kernel is known by its registered host pointer.
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/kernel_launch.h"
#include "testdata/sim/cudart/kernel_registry.h"

SIM_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_function);
SIM_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid_dim, dim3 block_dim,
                                          void** args, size_t shared_mem, cudaStream_t stream);
SIM_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid_dim, dim3 block_dim,
                                               void** args, size_t shared_mem, cudaStream_t stream);

namespace {

using sim::NullStream;

cudaError_t LaunchConfigured(const cudaLaunchConfig_t* config, const void* func, void** args,
                             NullStream null_stream, uint32_t cbid, const char* api_name) {
  cudaLaunchKernelExC_v11060_params params{config, func, args};
  if (config == nullptr) {
    sim::ApiCall call(cbid, api_name, &params, sim::KernelName(func));
    return call.Return(cudaErrorInvalidValue);
  }
  return sim::LaunchKernel(sim::KernelLaunch{func, config->gridDim, config->blockDim,
                                             config->dynamicSmemBytes, config->stream, null_stream},
                           cbid, api_name, &params);
}

}  // namespace

SIM_EXPORT cudaError_t cudaLaunchKernel(const void* func, dim3 grid_dim, dim3 block_dim,
                                        void** args, size_t shared_mem, cudaStream_t stream) {
  cudaLaunchKernel_v7000_params params{func, grid_dim, block_dim, args, shared_mem, stream};
  return sim::LaunchKernel(
      sim::KernelLaunch{func, grid_dim, block_dim, shared_mem, stream, NullStream::kLegacy},
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel", &params);
}

SIM_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid_dim, dim3 block_dim,
                                             void** args, size_t shared_mem, cudaStream_t stream) {
  cudaLaunchKernel_ptsz_v7000_params params{func, grid_dim, block_dim, args, shared_mem, stream};
  return sim::LaunchKernel(
      sim::KernelLaunch{func, grid_dim, block_dim, shared_mem, stream, NullStream::kPerThread},
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, "cudaLaunchKernel_ptsz", &params);
}

SIM_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                           void** args) {
  return LaunchConfigured(config, func, args, NullStream::kLegacy,
                          CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                          "cudaLaunchKernelExC");
}

SIM_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                                void** args) {
  return LaunchConfigured(config, func, args, NullStream::kPerThread,
                          CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                          "cudaLaunchKernelExC_ptsz");
}

// CUDA 13's launch path: the kernel handle is the registered host stub itself.
SIM_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_function) {
  if (kernel == nullptr) return cudaErrorInvalidValue;
  if (sim::KernelName(host_function) == nullptr) return cudaErrorInvalidDeviceFunction;
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(host_function));
  return cudaSuccess;
}

SIM_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid_dim, dim3 block_dim,
                                          void** /*args*/, size_t shared_mem, cudaStream_t stream) {
  return sim::LaunchKernel(
      sim::KernelLaunch{kernel, grid_dim, block_dim, shared_mem, stream, NullStream::kLegacy},
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, "__cudaLaunchKernel", nullptr);
}

SIM_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid_dim, dim3 block_dim,
                                               void** /*args*/, size_t shared_mem,
                                               cudaStream_t stream) {
  return sim::LaunchKernel(
      sim::KernelLaunch{kernel, grid_dim, block_dim, shared_mem, stream, NullStream::kPerThread},
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000, "__cudaLaunchKernel_ptsz", nullptr);
}

SIM_EXPORT cudaError_t cudaFuncGetName(const char** name, const void* func) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetName_v12030, "cudaFuncGetName");
  if (name == nullptr) return call.Return(cudaErrorInvalidValue);
  const char* kernel = sim::KernelName(func);
  if (kernel == nullptr) return call.Return(cudaErrorInvalidDeviceFunction);
  *name = kernel;
  return call.Return(cudaSuccess);
}

// The same function for simStaticRuntime (static_runtime.cc): hidden, so a call through it
// binds inside this library and no interposer of the exported name sees it.
extern "C" __attribute__((visibility("hidden"), alias("cudaLaunchKernel"))) cudaError_t
simStaticLaunchKernel(const void* func, dim3 grid_dim, dim3 block_dim, void** args,
                      size_t shared_mem, cudaStream_t stream);
