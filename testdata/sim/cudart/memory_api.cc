// Allocation: "device" memory is host memory, so copies and memsets really move bytes.
// Every allocation is remembered with its kind, which copies report to CUPTI and which
// cudaMemcpyDefault uses to infer a direction.
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include <cstdlib>
#include <mutex>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/thread_context.h"

namespace {

using sim::MemoryKind;

// Real allocations are at least 256-byte aligned; some programs rely on it.
constexpr size_t kAlignment = 256;
// Larger than any device: the real runtime fails these with cudaErrorMemoryAllocation.
constexpr size_t kMaxAllocation = 1ull << 40;

cudaError_t Allocate(void** out, size_t size, MemoryKind kind) {
  if (out == nullptr) return cudaErrorInvalidValue;
  *out = nullptr;
  if (size == 0) return cudaSuccess;
  if (size > kMaxAllocation) return cudaErrorMemoryAllocation;
  size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  void* memory = std::aligned_alloc(kAlignment, rounded);
  if (memory == nullptr) return cudaErrorMemoryAllocation;
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.allocations[reinterpret_cast<uintptr_t>(memory)] =
      sim::Allocation{size, kind, sim::CurrentDevice()};
  *out = memory;
  return cudaSuccess;
}

// Frees an allocation of one of `kinds`; NULL is a no-op like in the real runtime.
cudaError_t Release(void* pointer, bool host_kinds) {
  if (pointer == nullptr) return cudaSuccess;
  sim::RuntimeState& state = sim::State();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    auto found = state.allocations.find(reinterpret_cast<uintptr_t>(pointer));
    if (found == state.allocations.end()) return cudaErrorInvalidValue;
    bool is_host = found->second.kind == MemoryKind::kPinned;
    if (is_host != host_kinds) return cudaErrorInvalidValue;
    state.allocations.erase(found);
  }
  std::free(pointer);
  return cudaSuccess;
}

cudaError_t CheckStream(cudaStream_t stream, sim::NullStream null_stream) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  return sim::ResolveStream(state, stream, null_stream) == nullptr ? cudaErrorInvalidResourceHandle
                                                                   : cudaSuccess;
}

cudaError_t MallocAsync(void** out, size_t size, cudaStream_t stream, sim::NullStream mode,
                        uint32_t cbid, const char* name) {
  sim::ApiCall call(cbid, name);
  cudaError_t status = CheckStream(stream, mode);
  if (status == cudaSuccess) status = Allocate(out, size, MemoryKind::kDevice);
  return call.Return(status);
}

cudaError_t FreeAsync(void* pointer, cudaStream_t stream, sim::NullStream mode, uint32_t cbid,
                      const char* name) {
  sim::ApiCall call(cbid, name);
  cudaError_t status = CheckStream(stream, mode);
  if (status == cudaSuccess) status = Release(pointer, /*host_kinds=*/false);
  return call.Return(status);
}

}  // namespace

SIM_EXPORT cudaError_t cudaMalloc(void** dev_ptr, size_t size) {
  cudaMalloc_v3020_params params{dev_ptr, size};
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc", &params);
  return call.Return(Allocate(dev_ptr, size, MemoryKind::kDevice));
}

SIM_EXPORT cudaError_t cudaFree(void* dev_ptr) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, "cudaFree");
  return call.Return(Release(dev_ptr, /*host_kinds=*/false));
}

SIM_EXPORT cudaError_t cudaMallocHost(void** ptr, size_t size) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020, "cudaMallocHost");
  return call.Return(Allocate(ptr, size, MemoryKind::kPinned));
}

SIM_EXPORT cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020, "cudaHostAlloc");
  constexpr unsigned kKnownFlags =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if ((flags & ~kKnownFlags) != 0) return call.Return(cudaErrorInvalidValue);
  return call.Return(Allocate(ptr, size, MemoryKind::kPinned));
}

SIM_EXPORT cudaError_t cudaFreeHost(void* ptr) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020, "cudaFreeHost");
  return call.Return(Release(ptr, /*host_kinds=*/true));
}

SIM_EXPORT cudaError_t cudaMallocAsync(void** dev_ptr, size_t size, cudaStream_t stream) {
  return MallocAsync(dev_ptr, size, stream, sim::NullStream::kLegacy,
                     CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020, "cudaMallocAsync");
}

SIM_EXPORT cudaError_t cudaMallocAsync_ptsz(void** dev_ptr, size_t size, cudaStream_t stream) {
  return MallocAsync(dev_ptr, size, stream, sim::NullStream::kPerThread,
                     CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020, "cudaMallocAsync_ptsz");
}

SIM_EXPORT cudaError_t cudaFreeAsync(void* dev_ptr, cudaStream_t stream) {
  return FreeAsync(dev_ptr, stream, sim::NullStream::kLegacy,
                   CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020, "cudaFreeAsync");
}

SIM_EXPORT cudaError_t cudaFreeAsync_ptsz(void* dev_ptr, cudaStream_t stream) {
  return FreeAsync(dev_ptr, stream, sim::NullStream::kPerThread,
                   CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020, "cudaFreeAsync_ptsz");
}
