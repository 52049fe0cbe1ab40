// Host synchronization really blocks: the calling thread sleeps until CLOCK_MONOTONIC
// reaches the completion time of what it waits for. Each wait is reported to CUPTI as a
// SYNCHRONIZATION activity. cudaStreamWaitEvent only orders device work.
#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include <cstdint>
#include <mutex>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/scheduler.h"
#include "testdata/sim/cudart/thread_context.h"

namespace {

using sim::NullStream;

constexpr uint32_t kNone = UINT32_MAX;

struct WaitTarget {
  uint64_t until_ns = 0;
  uint32_t device = 0;
  uint32_t stream_id = kNone;
  uint32_t event_id = kNone;
};

void BlockAndReport(const WaitTarget& target, CUpti_ActivitySynchronizationType type,
                    uint32_t correlation_id) {
  uint64_t start = sim::MonotonicNowNs();
  sim::SleepUntilNs(target.until_ns);
  SimSyncEvent event{};
  event.type = type;
  event.correlation_id = correlation_id;
  event.start_ns = start;
  event.end_ns = sim::MonotonicNowNs();
  event.context_id = sim::ContextIdForDevice(target.device);
  event.stream_id = target.stream_id;
  event.event_id = target.event_id;
  sim::ReportSync(event);
}

cudaError_t FindStreamTarget(cudaStream_t handle, NullStream null_stream, WaitTarget* target) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, null_stream);
  if (stream == nullptr) return cudaErrorInvalidResourceHandle;
  if (stream->capture != nullptr) {
    stream->capture->invalidated = true;
    return cudaErrorStreamCaptureUnsupported;
  }
  *target = WaitTarget{stream->tail_ns, static_cast<uint32_t>(stream->device), stream->id, kNone};
  return cudaSuccess;
}

cudaError_t StreamSynchronize(cudaStream_t handle, NullStream null_stream, uint32_t cbid,
                              const char* name) {
  cudaStreamSynchronize_v3020_params params{handle};
  sim::ApiCall call(cbid, name, &params);
  WaitTarget target;
  cudaError_t status = FindStreamTarget(handle, null_stream, &target);
  if (status != cudaSuccess) return call.Return(status);
  BlockAndReport(target, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE,
                 call.correlation_id());
  return call.Return(cudaSuccess);
}

// A wait on an event recorded inside a capture pulls the waiting stream into that capture.
cudaError_t WaitEvent(cudaStream_t handle, cudaEvent_t event_handle, NullStream null_stream,
                      WaitTarget* target) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, null_stream);
  auto event = state.events.find(reinterpret_cast<uint64_t>(event_handle));
  if (stream == nullptr || event == state.events.end()) return cudaErrorInvalidResourceHandle;
  *target = WaitTarget{0, static_cast<uint32_t>(stream->device), stream->id, event->second.id};
  if (event->second.capture != nullptr) {
    if (stream->capture == nullptr) stream->capture = event->second.capture;
    return cudaSuccess;
  }
  if (event->second.recorded) sim::WaitOnStream(state, *stream, event->second.time_ns);
  return cudaSuccess;
}

cudaError_t StreamWaitEvent(cudaStream_t stream, cudaEvent_t event, NullStream null_stream,
                            uint32_t cbid, const char* name) {
  sim::ApiCall call(cbid, name);
  WaitTarget target;
  cudaError_t status = WaitEvent(stream, event, null_stream, &target);
  if (status == cudaSuccess) {
    BlockAndReport(target, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT,
                   call.correlation_id());
  }
  return call.Return(status);
}

}  // namespace

SIM_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return StreamSynchronize(stream, NullStream::kLegacy,
                           CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
                           "cudaStreamSynchronize");
}

SIM_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return StreamSynchronize(stream, NullStream::kPerThread,
                           CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
                           "cudaStreamSynchronize_ptsz");
}

SIM_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                           unsigned int /*flags*/) {
  return StreamWaitEvent(stream, event, NullStream::kLegacy,
                         CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, "cudaStreamWaitEvent");
}

SIM_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                unsigned int /*flags*/) {
  return StreamWaitEvent(stream, event, NullStream::kPerThread,
                         CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000,
                         "cudaStreamWaitEvent_ptsz");
}

SIM_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event_handle) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, "cudaEventSynchronize");
  WaitTarget target;
  {
    sim::RuntimeState& state = sim::State();
    std::lock_guard<std::mutex> lock(state.mutex);
    auto event = state.events.find(reinterpret_cast<uint64_t>(event_handle));
    if (event == state.events.end()) return call.Return(cudaErrorInvalidResourceHandle);
    uint64_t until = event->second.recorded ? event->second.time_ns : 0;
    target =
        WaitTarget{until, static_cast<uint32_t>(event->second.device), kNone, event->second.id};
  }
  BlockAndReport(target, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE,
                 call.correlation_id());
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, "cudaDeviceSynchronize");
  WaitTarget target;
  {
    sim::RuntimeState& state = sim::State();
    std::lock_guard<std::mutex> lock(state.mutex);
    int device = sim::CurrentDevice();
    target =
        WaitTarget{sim::DeviceTailNs(state, device), static_cast<uint32_t>(device), kNone, kNone};
  }
  BlockAndReport(target, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE,
                 call.correlation_id());
  return call.Return(cudaSuccess);
}

// The same function for simStaticRuntime (static_runtime.cc): hidden, so a call through it
// binds inside this library and no interposer of the exported name sees it.
extern "C" __attribute__((visibility("hidden"), alias("cudaStreamSynchronize"))) cudaError_t
simStaticStreamSynchronize(cudaStream_t stream);
