// Stream creation, destruction, flags and priorities, and the non-blocking query.
// Synchronization entry points live in sync_api.cc.
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>

#include <mutex>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/thread_context.h"

namespace {

using sim::NullStream;

// Priorities as a Hopper part reports them: 0 is the least, -5 the greatest.
constexpr int kLeastPriority = 0;
constexpr int kGreatestPriority = -5;

int ClampPriority(int priority) {
  if (priority > kLeastPriority) return kLeastPriority;
  if (priority < kGreatestPriority) return kGreatestPriority;
  return priority;
}

cudaError_t CreateStream(cudaStream_t* out, unsigned flags, int priority) {
  if (out == nullptr) return cudaErrorInvalidValue;
  if ((flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) != 0) return cudaErrorInvalidValue;
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream stream;
  stream.id = state.next_stream_id++;
  stream.device = sim::CurrentDevice();
  stream.flags = flags;
  stream.priority = ClampPriority(priority);
  uint64_t handle = sim::NewHandleValue(state);
  state.streams.emplace(handle, stream);
  *out = reinterpret_cast<cudaStream_t>(handle);
  return cudaSuccess;
}

// Runs `read` on the resolved stream under the lock.
template <typename Read>
cudaError_t WithStream(cudaStream_t handle, NullStream null_stream, Read read) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, null_stream);
  if (stream == nullptr) return cudaErrorInvalidResourceHandle;
  return read(*stream);
}

cudaError_t StreamQuery(cudaStream_t handle, NullStream null_stream, uint32_t cbid,
                        const char* name) {
  sim::ApiCall call(cbid, name);
  return call.Return(WithStream(handle, null_stream, [](sim::Stream& stream) {
    return sim::MonotonicNowNs() >= stream.tail_ns ? cudaSuccess : cudaErrorNotReady;
  }));
}

cudaError_t StreamGetId(cudaStream_t handle, unsigned long long* id, NullStream null_stream,
                        uint32_t cbid, const char* name) {
  sim::ApiCall call(cbid, name);
  if (id == nullptr) return call.Return(cudaErrorInvalidValue);
  return call.Return(WithStream(handle, null_stream, [id](sim::Stream& stream) {
    *id = stream.id;
    return cudaSuccess;
  }));
}

}  // namespace

SIM_EXPORT cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020, "cudaStreamCreate");
  return call.Return(CreateStream(stream, cudaStreamDefault, 0));
}

SIM_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000,
                    "cudaStreamCreateWithFlags");
  return call.Return(CreateStream(stream, flags, 0));
}

SIM_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags,
                                                    int priority) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050,
                    "cudaStreamCreateWithPriority");
  return call.Return(CreateStream(stream, flags, priority));
}

SIM_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050,
                    "cudaDeviceGetStreamPriorityRange");
  if (least != nullptr) *least = kLeastPriority;
  if (greatest != nullptr) *greatest = kGreatestPriority;
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t handle) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, "cudaStreamDestroy");
  // The implicit streams cannot be destroyed; the real runtime says invalid handle.
  if (handle == nullptr || handle == cudaStreamLegacy || handle == cudaStreamPerThread) {
    return call.Return(cudaErrorInvalidResourceHandle);
  }
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  // Pending work still "runs": its records were already reported with their times.
  size_t erased = state.streams.erase(reinterpret_cast<uint64_t>(handle));
  return call.Return(erased == 1 ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

SIM_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return StreamQuery(stream, NullStream::kLegacy, CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020,
                     "cudaStreamQuery");
}

SIM_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) {
  return StreamQuery(stream, NullStream::kPerThread,
                     CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000, "cudaStreamQuery_ptsz");
}

SIM_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t handle, unsigned int* flags) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_v5050, "cudaStreamGetFlags");
  if (flags == nullptr) return call.Return(cudaErrorInvalidValue);
  return call.Return(WithStream(handle, NullStream::kLegacy, [flags](sim::Stream& stream) {
    *flags = stream.flags;
    return cudaSuccess;
  }));
}

SIM_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t handle, int* priority) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_v5050, "cudaStreamGetPriority");
  if (priority == nullptr) return call.Return(cudaErrorInvalidValue);
  return call.Return(WithStream(handle, NullStream::kLegacy, [priority](sim::Stream& stream) {
    *priority = stream.priority;
    return cudaSuccess;
  }));
}

SIM_EXPORT cudaError_t cudaStreamGetId(cudaStream_t handle, unsigned long long* id) {
  return StreamGetId(handle, id, NullStream::kLegacy,
                     CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_v12000, "cudaStreamGetId");
}

SIM_EXPORT cudaError_t cudaStreamGetId_ptsz(cudaStream_t handle, unsigned long long* id) {
  return StreamGetId(handle, id, NullStream::kPerThread,
                     CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_ptsz_v12000, "cudaStreamGetId_ptsz");
}
