// Events: a recorded event completes when the work before it on its stream completes.
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>

#include <mutex>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/scheduler.h"
#include "testdata/sim/cudart/thread_context.h"

namespace {

using sim::NullStream;

constexpr unsigned kKnownEventFlags =
    cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;

cudaError_t CreateEvent(cudaEvent_t* out, unsigned flags) {
  if (out == nullptr || (flags & ~kKnownEventFlags) != 0) return cudaErrorInvalidValue;
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Event event;
  event.id = state.next_event_id++;
  event.flags = flags;
  event.device = sim::CurrentDevice();
  uint64_t handle = sim::NewHandleValue(state);
  state.events.emplace(handle, event);
  *out = reinterpret_cast<cudaEvent_t>(handle);
  return cudaSuccess;
}

// Inside a capture the record only marks a point of the graph (other streams that wait on
// it join the capture); outside it completes after the stream's current tail.
cudaError_t RecordEvent(cudaEvent_t handle, cudaStream_t stream_handle, NullStream null_stream) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.events.find(reinterpret_cast<uint64_t>(handle));
  if (found == state.events.end()) return cudaErrorInvalidResourceHandle;
  sim::Stream* stream = sim::ResolveStream(state, stream_handle, null_stream);
  if (stream == nullptr) return cudaErrorInvalidResourceHandle;
  sim::Event& event = found->second;
  if (stream->capture != nullptr) {
    event.capture = stream->capture;
    return cudaSuccess;
  }
  event.capture = nullptr;
  event.recorded = true;
  event.time_ns = sim::ScheduleOnStream(state, *stream, 0, 0, false).end_ns;
  return cudaSuccess;
}

cudaError_t Record(cudaEvent_t event, cudaStream_t stream, NullStream null_stream, uint32_t cbid,
                   const char* name) {
  sim::ApiCall call(cbid, name);
  return call.Return(RecordEvent(event, stream, null_stream));
}

// Copies the event out under the lock; false for unknown or destroyed handles.
bool LookUpEvent(cudaEvent_t handle, sim::Event* out) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.events.find(reinterpret_cast<uint64_t>(handle));
  if (found == state.events.end()) return false;
  *out = found->second;
  return true;
}

cudaError_t ElapsedTime(float* ms, cudaEvent_t start_handle, cudaEvent_t end_handle) {
  if (ms == nullptr) return cudaErrorInvalidValue;
  sim::Event start;
  sim::Event end;
  if (!LookUpEvent(start_handle, &start) || !LookUpEvent(end_handle, &end)) {
    return cudaErrorInvalidResourceHandle;
  }
  if (!start.recorded || !end.recorded) return cudaErrorInvalidResourceHandle;
  if (((start.flags | end.flags) & cudaEventDisableTiming) != 0) {
    return cudaErrorInvalidResourceHandle;
  }
  uint64_t now = sim::MonotonicNowNs();
  if (now < start.time_ns || now < end.time_ns) return cudaErrorNotReady;
  double delta_ns = static_cast<double>(end.time_ns) - static_cast<double>(start.time_ns);
  *ms = static_cast<float>(delta_ns / 1e6);
  return cudaSuccess;
}

}  // namespace

SIM_EXPORT cudaError_t cudaEventCreate(cudaEvent_t* event) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020, "cudaEventCreate");
  return call.Return(CreateEvent(event, cudaEventDefault));
}

SIM_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020,
                    "cudaEventCreateWithFlags");
  return call.Return(CreateEvent(event, flags));
}

SIM_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return Record(event, stream, NullStream::kLegacy, CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020,
                "cudaEventRecord");
}

SIM_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  return Record(event, stream, NullStream::kPerThread,
                CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000, "cudaEventRecord_ptsz");
}

SIM_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                                unsigned int /*flags*/) {
  return Record(event, stream, NullStream::kLegacy,
                CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010,
                "cudaEventRecordWithFlags");
}

SIM_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                     unsigned int /*flags*/) {
  return Record(event, stream, NullStream::kPerThread,
                CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010,
                "cudaEventRecordWithFlags_ptsz");
}

SIM_EXPORT cudaError_t cudaEventQuery(cudaEvent_t handle) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, "cudaEventQuery");
  sim::Event event;
  if (!LookUpEvent(handle, &event)) return call.Return(cudaErrorInvalidResourceHandle);
  bool done = !event.recorded || sim::MonotonicNowNs() >= event.time_ns;
  return call.Return(done ? cudaSuccess : cudaErrorNotReady);
}

SIM_EXPORT cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080, "cudaEventElapsedTime");
  return call.Return(ElapsedTime(ms, start, end));
}

SIM_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t handle) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020, "cudaEventDestroy");
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  size_t erased = state.events.erase(reinterpret_cast<uint64_t>(handle));
  return call.Return(erased == 1 ? cudaSuccess : cudaErrorInvalidResourceHandle);
}
