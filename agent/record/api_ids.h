// Ids of the intercepted CUDA runtime functions, stored in Record::api, and their names
// (the writer interns names once per file). Append-only list.
#ifndef PROF_AGENT_RECORD_API_IDS_H_
#define PROF_AGENT_RECORD_API_IDS_H_

#include <cstdint>

namespace prof {

#define PROF_CUDA_RUNTIME_APIS(X)                                                              \
  X(cudaLaunchKernel)                                                                          \
  X(cudaLaunchKernel_ptsz) X(cudaLaunchKernelExC) X(cudaLaunchKernelExC_ptsz)                  \
      X(__cudaLaunchKernel) X(__cudaLaunchKernel_ptsz) X(cudaMemcpy) X(cudaMemcpy_ptds)        \
          X(cudaMemcpyAsync) X(cudaMemcpyAsync_ptsz) X(cudaMemset) X(cudaMemset_ptds)          \
              X(cudaMemsetAsync) X(cudaMemsetAsync_ptsz) X(cudaMalloc) X(cudaFree)             \
                  X(cudaMallocAsync) X(cudaMallocAsync_ptsz) X(cudaFreeAsync)                  \
                      X(cudaFreeAsync_ptsz) X(cudaMallocHost) X(cudaHostAlloc) X(cudaFreeHost) \
                          X(cudaStreamSynchronize) X(cudaStreamSynchronize_ptsz)               \
                              X(cudaEventSynchronize) X(cudaDeviceSynchronize)                 \
                                  X(cudaStreamWaitEvent) X(cudaStreamWaitEvent_ptsz)           \
                                      X(cudaGraphLaunch) X(cudaGraphLaunch_ptsz)               \
                                          X(cudaEventRecord) X(cudaEventRecord_ptsz)

enum ApiId : uint16_t {
  kApiNone = 0,
#define PROF_API_ENUM(name) kApi_##name,
  PROF_CUDA_RUNTIME_APIS(PROF_API_ENUM)
#undef PROF_API_ENUM
      kApiCount
};

// "cudaLaunchKernel" for kApi_cudaLaunchKernel; "" for unknown ids.
const char* ApiName(uint16_t api);

// kApiNone when `name` is not intercepted.
uint16_t ApiIdByName(const char* name);

}  // namespace prof

#endif  // PROF_AGENT_RECORD_API_IDS_H_
