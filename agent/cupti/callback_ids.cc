#include "agent/cupti/callback_ids.h"

namespace prof {
namespace {

// Each entry names the id exactly as CUPTI's headers do, so an id that does not exist
// fails to compile.
#define PROF_RUNTIME(id, purpose) \
  { CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##id, #id, CallbackPurpose::purpose }
#define PROF_DRIVER(id) \
  { CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##id, #id, CallbackPurpose::kDriverWork }
#define PROF_HOOKED(id) PROF_RUNTIME(id, kHooked)
#define PROF_RUNTIME_WORK(id) PROF_RUNTIME(id, kRuntimeWork)

constexpr CallbackIdEntry kCallbackIds[] = {
    // The interposed runtime functions (agent/record/api_ids.h), every one: the hook
    // stores the correlation id this callback sets.
    PROF_HOOKED(cudaLaunchKernel_v7000),
    PROF_HOOKED(cudaLaunchKernel_ptsz_v7000),
    PROF_HOOKED(cudaLaunchKernelExC_v11060),
    PROF_HOOKED(cudaLaunchKernelExC_ptsz_v11060),
    PROF_HOOKED(__cudaLaunchKernel_v13000),
    PROF_HOOKED(__cudaLaunchKernel_ptsz_v13000),
    PROF_HOOKED(cudaMemcpy_v3020),
    PROF_HOOKED(cudaMemcpy_ptds_v7000),
    PROF_HOOKED(cudaMemcpyAsync_v3020),
    PROF_HOOKED(cudaMemcpyAsync_ptsz_v7000),
    PROF_HOOKED(cudaMemset_v3020),
    PROF_HOOKED(cudaMemset_ptds_v7000),
    PROF_HOOKED(cudaMemsetAsync_v3020),
    PROF_HOOKED(cudaMemsetAsync_ptsz_v7000),
    PROF_HOOKED(cudaMalloc_v3020),
    PROF_HOOKED(cudaFree_v3020),
    PROF_HOOKED(cudaMallocAsync_v11020),
    PROF_HOOKED(cudaMallocAsync_ptsz_v11020),
    PROF_HOOKED(cudaFreeAsync_v11020),
    PROF_HOOKED(cudaFreeAsync_ptsz_v11020),
    PROF_HOOKED(cudaMallocHost_v3020),
    PROF_HOOKED(cudaHostAlloc_v3020),
    PROF_HOOKED(cudaFreeHost_v3020),
    PROF_HOOKED(cudaStreamSynchronize_v3020),
    PROF_HOOKED(cudaStreamSynchronize_ptsz_v7000),
    PROF_HOOKED(cudaEventSynchronize_v3020),
    PROF_HOOKED(cudaDeviceSynchronize_v3020),
    PROF_HOOKED(cudaStreamWaitEvent_v3020),
    PROF_HOOKED(cudaStreamWaitEvent_ptsz_v7000),
    PROF_HOOKED(cudaGraphLaunch_v10000),
    PROF_HOOKED(cudaGraphLaunch_ptsz_v10000),
    PROF_HOOKED(cudaEventRecord_v3020),
    PROF_HOOKED(cudaEventRecord_ptsz_v7000),

    // Runtime launches, copies and memsets libprof does not interpose.
    PROF_RUNTIME_WORK(cudaLaunchCooperativeKernel_v9000),
    PROF_RUNTIME_WORK(cudaLaunchCooperativeKernel_ptsz_v9000),
    PROF_RUNTIME_WORK(cudaLaunchCooperativeKernelMultiDevice_v9000),
    PROF_RUNTIME_WORK(cudaMemcpy2D_v3020),
    PROF_RUNTIME_WORK(cudaMemcpy2D_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemcpy2DAsync_v3020),
    PROF_RUNTIME_WORK(cudaMemcpy2DAsync_ptsz_v7000),
    PROF_RUNTIME_WORK(cudaMemcpy3D_v3020),
    PROF_RUNTIME_WORK(cudaMemcpy3D_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemcpy3DAsync_v3020),
    PROF_RUNTIME_WORK(cudaMemcpy3DAsync_ptsz_v7000),
    PROF_RUNTIME_WORK(cudaMemcpyPeer_v4000),
    PROF_RUNTIME_WORK(cudaMemcpyPeerAsync_v4000),
    PROF_RUNTIME_WORK(cudaMemcpy3DPeer_v4000),
    PROF_RUNTIME_WORK(cudaMemcpy3DPeer_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemcpy3DPeerAsync_v4000),
    PROF_RUNTIME_WORK(cudaMemcpy3DPeerAsync_ptsz_v7000),
    PROF_RUNTIME_WORK(cudaMemcpyToSymbol_v3020),
    PROF_RUNTIME_WORK(cudaMemcpyToSymbol_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemcpyFromSymbol_v3020),
    PROF_RUNTIME_WORK(cudaMemcpyFromSymbol_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemcpyToSymbolAsync_v3020),
    PROF_RUNTIME_WORK(cudaMemcpyToSymbolAsync_ptsz_v7000),
    PROF_RUNTIME_WORK(cudaMemcpyFromSymbolAsync_v3020),
    PROF_RUNTIME_WORK(cudaMemcpyFromSymbolAsync_ptsz_v7000),
    PROF_RUNTIME_WORK(cudaMemcpyBatchAsync_v12080),
    PROF_RUNTIME_WORK(cudaMemcpyBatchAsync_ptsz_v12080),
    PROF_RUNTIME_WORK(cudaMemcpyBatchAsync_v13000),
    PROF_RUNTIME_WORK(cudaMemcpyBatchAsync_ptsz_v13000),
    PROF_RUNTIME_WORK(cudaMemcpy3DBatchAsync_v12080),
    PROF_RUNTIME_WORK(cudaMemcpy3DBatchAsync_ptsz_v12080),
    PROF_RUNTIME_WORK(cudaMemcpy3DBatchAsync_v13000),
    PROF_RUNTIME_WORK(cudaMemcpy3DBatchAsync_ptsz_v13000),
    PROF_RUNTIME_WORK(cudaMemset2D_v3020),
    PROF_RUNTIME_WORK(cudaMemset2D_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemset2DAsync_v3020),
    PROF_RUNTIME_WORK(cudaMemset2DAsync_ptsz_v7000),
    PROF_RUNTIME_WORK(cudaMemset3D_v3020),
    PROF_RUNTIME_WORK(cudaMemset3D_ptds_v7000),
    PROF_RUNTIME_WORK(cudaMemset3DAsync_v3020),
    PROF_RUNTIME_WORK(cudaMemset3DAsync_ptsz_v7000),

    // Driver launches: what NCCL, Triton and libraries with a static runtime call.
    PROF_DRIVER(cuLaunchKernel),
    PROF_DRIVER(cuLaunchKernel_ptsz),
    PROF_DRIVER(cuLaunchKernelEx),
    PROF_DRIVER(cuLaunchKernelEx_ptsz),
    PROF_DRIVER(cuLaunchCooperativeKernel),
    PROF_DRIVER(cuLaunchCooperativeKernel_ptsz),
    PROF_DRIVER(cuLaunchCooperativeKernelMultiDevice),
    PROF_DRIVER(cuGraphLaunch),
    PROF_DRIVER(cuGraphLaunch_ptsz),
    // Driver copies of linear memory (the current ABI: _v2 where one exists).
    PROF_DRIVER(cuMemcpy),
    PROF_DRIVER(cuMemcpy_ptds),
    PROF_DRIVER(cuMemcpyAsync),
    PROF_DRIVER(cuMemcpyAsync_ptsz),
    PROF_DRIVER(cuMemcpyPeer),
    PROF_DRIVER(cuMemcpyPeer_ptds),
    PROF_DRIVER(cuMemcpyPeerAsync),
    PROF_DRIVER(cuMemcpyPeerAsync_ptsz),
    PROF_DRIVER(cuMemcpyHtoD_v2),
    PROF_DRIVER(cuMemcpyHtoD_v2_ptds),
    PROF_DRIVER(cuMemcpyDtoH_v2),
    PROF_DRIVER(cuMemcpyDtoH_v2_ptds),
    PROF_DRIVER(cuMemcpyDtoD_v2),
    PROF_DRIVER(cuMemcpyDtoD_v2_ptds),
    PROF_DRIVER(cuMemcpyHtoDAsync_v2),
    PROF_DRIVER(cuMemcpyHtoDAsync_v2_ptsz),
    PROF_DRIVER(cuMemcpyDtoHAsync_v2),
    PROF_DRIVER(cuMemcpyDtoHAsync_v2_ptsz),
    PROF_DRIVER(cuMemcpyDtoDAsync_v2),
    PROF_DRIVER(cuMemcpyDtoDAsync_v2_ptsz),
    PROF_DRIVER(cuMemcpy2D_v2),
    PROF_DRIVER(cuMemcpy2D_v2_ptds),
    PROF_DRIVER(cuMemcpy2DUnaligned_v2),
    PROF_DRIVER(cuMemcpy2DUnaligned_v2_ptds),
    PROF_DRIVER(cuMemcpy2DAsync_v2),
    PROF_DRIVER(cuMemcpy2DAsync_v2_ptsz),
    PROF_DRIVER(cuMemcpy3D_v2),
    PROF_DRIVER(cuMemcpy3D_v2_ptds),
    PROF_DRIVER(cuMemcpy3DAsync_v2),
    PROF_DRIVER(cuMemcpy3DAsync_v2_ptsz),
    PROF_DRIVER(cuMemcpy3DPeer),
    PROF_DRIVER(cuMemcpy3DPeer_ptds),
    PROF_DRIVER(cuMemcpy3DPeerAsync),
    PROF_DRIVER(cuMemcpy3DPeerAsync_ptsz),
    PROF_DRIVER(cuMemcpyBatchAsync),
    PROF_DRIVER(cuMemcpyBatchAsync_ptsz),
    PROF_DRIVER(cuMemcpyBatchAsync_v2),
    PROF_DRIVER(cuMemcpyBatchAsync_v2_ptsz),
    PROF_DRIVER(cuMemcpy3DBatchAsync),
    PROF_DRIVER(cuMemcpy3DBatchAsync_ptsz),
    PROF_DRIVER(cuMemcpy3DBatchAsync_v2),
    PROF_DRIVER(cuMemcpy3DBatchAsync_v2_ptsz),
    // Driver memsets.
    PROF_DRIVER(cuMemsetD8_v2),
    PROF_DRIVER(cuMemsetD8_v2_ptds),
    PROF_DRIVER(cuMemsetD16_v2),
    PROF_DRIVER(cuMemsetD16_v2_ptds),
    PROF_DRIVER(cuMemsetD32_v2),
    PROF_DRIVER(cuMemsetD32_v2_ptds),
    PROF_DRIVER(cuMemsetD2D8_v2),
    PROF_DRIVER(cuMemsetD2D8_v2_ptds),
    PROF_DRIVER(cuMemsetD2D16_v2),
    PROF_DRIVER(cuMemsetD2D16_v2_ptds),
    PROF_DRIVER(cuMemsetD2D32_v2),
    PROF_DRIVER(cuMemsetD2D32_v2_ptds),
    PROF_DRIVER(cuMemsetD8Async),
    PROF_DRIVER(cuMemsetD8Async_ptsz),
    PROF_DRIVER(cuMemsetD16Async),
    PROF_DRIVER(cuMemsetD16Async_ptsz),
    PROF_DRIVER(cuMemsetD32Async),
    PROF_DRIVER(cuMemsetD32Async_ptsz),
    PROF_DRIVER(cuMemsetD2D8Async),
    PROF_DRIVER(cuMemsetD2D8Async_ptsz),
    PROF_DRIVER(cuMemsetD2D16Async),
    PROF_DRIVER(cuMemsetD2D16Async_ptsz),
    PROF_DRIVER(cuMemsetD2D32Async),
    PROF_DRIVER(cuMemsetD2D32Async_ptsz),
    // Driver waits: CUPTI's synchronization records carry their correlation ids.
    PROF_DRIVER(cuCtxSynchronize),
    PROF_DRIVER(cuCtxSynchronize_v2),
    PROF_DRIVER(cuStreamSynchronize),
    PROF_DRIVER(cuStreamSynchronize_ptsz),
    PROF_DRIVER(cuEventSynchronize),
    PROF_DRIVER(cuStreamWaitEvent),
    PROF_DRIVER(cuStreamWaitEvent_ptsz),
};

#undef PROF_RUNTIME_WORK
#undef PROF_HOOKED
#undef PROF_DRIVER
#undef PROF_RUNTIME

}  // namespace

const CallbackIdEntry* AgentCallbackIds(size_t* count) {
  *count = sizeof(kCallbackIds) / sizeof(kCallbackIds[0]);
  return kCallbackIds;
}

}  // namespace prof
