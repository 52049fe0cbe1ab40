// simStaticRuntime: the runtime entry points a library with its own static runtime calls
// (sim_ext.h). Each is a hidden alias of the exported function, defined beside it.
#include <cuda_runtime_api.h>

#include "sim/sim_ext.h"
#include "testdata/sim/cudart/export.h"

extern "C" {
__attribute__((visibility("hidden"))) cudaError_t simStaticLaunchKernel(const void* func,
                                                                        dim3 grid_dim,
                                                                        dim3 block_dim, void** args,
                                                                        size_t shared_mem,
                                                                        cudaStream_t stream);
__attribute__((visibility("hidden"))) cudaError_t simStaticMemsetAsync(void* dev_ptr, int value,
                                                                       size_t count,
                                                                       cudaStream_t stream);
__attribute__((visibility("hidden"))) cudaError_t simStaticMemcpyAsync(void* dst, const void* src,
                                                                       size_t count,
                                                                       cudaMemcpyKind kind,
                                                                       cudaStream_t stream);
__attribute__((visibility("hidden"))) cudaError_t simStaticStreamSynchronize(cudaStream_t stream);
}

SIM_EXPORT const SimStaticRuntime* simStaticRuntime(void) {
  static const SimStaticRuntime table{simStaticLaunchKernel, simStaticMemsetAsync,
                                      simStaticMemcpyAsync, simStaticStreamSynchronize};
  return &table;
}
