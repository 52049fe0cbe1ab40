// cudaMemcpy / cudaMemset and their async and per-thread-default-stream variants.
// The bytes move when the call is made; the device timeline says when the copy "ran".
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include <mutex>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/copy_planning.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/scheduler.h"

namespace {

using sim::NullStream;

cudaError_t Memcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                   cudaStream_t stream, NullStream null_stream, bool synchronous, uint32_t cbid,
                   const char* name) {
  cudaMemcpyAsync_v3020_params params{dst, src, count, kind, stream};
  sim::ApiCall call(cbid, name, &params);
  sim::WorkItem item;
  cudaError_t status = sim::PlanCopy(dst, src, count, kind, &item);
  if (status != cudaSuccess || count == 0) return call.Return(status);
  item.is_async = !synchronous;
  item.blocks_host = synchronous;
  sim::EnqueueResult result;
  status = sim::EnqueueWork(stream, null_stream, item, call.correlation_id(), 0, &result);
  if (status == cudaSuccess && synchronous) sim::SleepUntilNs(result.when.end_ns);
  return call.Return(status);
}

cudaError_t Memset(void* dst, int value, size_t count, cudaStream_t stream, NullStream null_stream,
                   bool is_async, uint32_t cbid, const char* name) {
  cudaMemsetAsync_v3020_params params{dst, value, count, stream};
  sim::ApiCall call(cbid, name, &params);
  sim::WorkItem item;
  cudaError_t status = sim::PlanMemset(dst, value, count, &item);
  if (status != cudaSuccess || count == 0) return call.Return(status);
  // cudaMemset does not block the host either; only its record says "not async".
  item.is_async = is_async;
  status = sim::EnqueueWork(stream, null_stream, item, call.correlation_id(), 0);
  return call.Return(status);
}

}  // namespace

SIM_EXPORT cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return Memcpy(dst, src, count, kind, nullptr, NullStream::kLegacy, true,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, "cudaMemcpy");
}

SIM_EXPORT cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count,
                                       cudaMemcpyKind kind) {
  return Memcpy(dst, src, count, kind, nullptr, NullStream::kPerThread, true,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000, "cudaMemcpy_ptds");
}

SIM_EXPORT cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                       cudaMemcpyKind kind, cudaStream_t stream) {
  return Memcpy(dst, src, count, kind, stream, NullStream::kLegacy, false,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync");
}

SIM_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                                            cudaMemcpyKind kind, cudaStream_t stream) {
  return Memcpy(dst, src, count, kind, stream, NullStream::kPerThread, false,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000, "cudaMemcpyAsync_ptsz");
}

SIM_EXPORT cudaError_t cudaMemset(void* dev_ptr, int value, size_t count) {
  return Memset(dev_ptr, value, count, nullptr, NullStream::kLegacy, false,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, "cudaMemset");
}

SIM_EXPORT cudaError_t cudaMemset_ptds(void* dev_ptr, int value, size_t count) {
  return Memset(dev_ptr, value, count, nullptr, NullStream::kPerThread, false,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000, "cudaMemset_ptds");
}

SIM_EXPORT cudaError_t cudaMemsetAsync(void* dev_ptr, int value, size_t count,
                                       cudaStream_t stream) {
  return Memset(dev_ptr, value, count, stream, NullStream::kLegacy, true,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync");
}

SIM_EXPORT cudaError_t cudaMemsetAsync_ptsz(void* dev_ptr, int value, size_t count,
                                            cudaStream_t stream) {
  return Memset(dev_ptr, value, count, stream, NullStream::kPerThread, true,
                CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000, "cudaMemsetAsync_ptsz");
}

// The same function for simStaticRuntime (static_runtime.cc): hidden, so a call through it
// binds inside this library and no interposer of the exported name sees it.
extern "C" __attribute__((visibility("hidden"), alias("cudaMemsetAsync"))) cudaError_t
simStaticMemsetAsync(void* dev_ptr, int value, size_t count, cudaStream_t stream);

// The same function for simStaticRuntime (static_runtime.cc): hidden, so a call through it
// binds inside this library and no interposer of the exported name sees it.
extern "C" __attribute__((visibility("hidden"), alias("cudaMemcpyAsync"))) cudaError_t
simStaticMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                     cudaStream_t stream);
