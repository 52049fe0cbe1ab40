// Shared by the CUDA runtime hook files: the real-function lookup macro and the
// per-thread-default-stream variants, which the runtime headers only declare when a
// program is compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM.
#ifndef PROF_AGENT_HOOKS_CUDART_HOOKS_H_
#define PROF_AGENT_HOOKS_CUDART_HOOKS_H_

#include <cuda_runtime_api.h>

#include "agent/hooks/hook_support.h"
#include "agent/hooks/symbol_resolver.h"
#include "agent/record/api_ids.h"

// Declares `real`: the real `name` this hook's caller reaches (symbol_resolver.h); a
// program without libcudart gets the runtime's own error for a missing symbol rather
// than a crash.
#define PROF_REAL_CUDART(name) \
  PROF_RESOLVE_REAL(name);     \
  if (!real) return cudaErrorSharedObjectSymbolNotFound

extern "C" {
cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                  size_t shared_memory, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                     void** args);
cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                 cudaStream_t stream);
cudaError_t cudaMemset_ptds(void* dst, int value, size_t count);
cudaError_t cudaMemsetAsync_ptsz(void* dst, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMallocAsync_ptsz(void** pointer, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync_ptsz(void* pointer, cudaStream_t stream);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned flags);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graph, cudaStream_t stream);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* function);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                               size_t shared_memory, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                    size_t shared_memory, cudaStream_t stream);
void __cudaRegisterFunction(void** fat_cubin_handle, const char* host_function,
                            char* device_function, const char* device_name, int thread_limit,
                            uint3* tid, uint3* bid, dim3* block, dim3* grid, int* warp_size);
}

#endif  // PROF_AGENT_HOOKS_CUDART_HOOKS_H_
