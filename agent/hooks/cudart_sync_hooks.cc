// Synchronization, events and graph launches.
#include "agent/hooks/cudart_hooks.h"

namespace prof {
namespace {

ApiArguments OnStream(const void* stream) {
  ApiArguments arguments;
  arguments.stream_plus_one = StreamArgument(stream);
  return arguments;
}

}  // namespace
}  // namespace prof

using prof::HookIdle;
using prof::TimedApiCall;

PROF_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  PROF_REAL_CUDART(cudaStreamSynchronize);
  if (HookIdle()) return real(stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaStreamSynchronize, prof::OnStream(stream),
                                   [&] { return real(stream); });
}

PROF_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  PROF_REAL_CUDART(cudaStreamSynchronize_ptsz);
  if (HookIdle()) return real(stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaStreamSynchronize_ptsz, prof::OnStream(stream),
                                   [&] { return real(stream); });
}

PROF_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  PROF_REAL_CUDART(cudaEventSynchronize);
  if (HookIdle()) return real(event);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaEventSynchronize, prof::ApiArguments(),
                                   [&] { return real(event); });
}

PROF_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  PROF_REAL_CUDART(cudaDeviceSynchronize);
  if (HookIdle()) return real();
  return TimedApiCall<cudaError_t>(prof::kApi_cudaDeviceSynchronize, prof::ApiArguments(),
                                   [&] { return real(); });
}

PROF_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags) {
  PROF_REAL_CUDART(cudaStreamWaitEvent);
  if (HookIdle()) return real(stream, event, flags);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaStreamWaitEvent, prof::OnStream(stream),
                                   [&] { return real(stream, event, flags); });
}

PROF_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                 unsigned int flags) {
  PROF_REAL_CUDART(cudaStreamWaitEvent_ptsz);
  if (HookIdle()) return real(stream, event, flags);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaStreamWaitEvent_ptsz, prof::OnStream(stream),
                                   [&] { return real(stream, event, flags); });
}

PROF_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaEventRecord);
  if (HookIdle()) return real(event, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaEventRecord, prof::OnStream(stream),
                                   [&] { return real(event, stream); });
}

PROF_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaEventRecord_ptsz);
  if (HookIdle()) return real(event, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaEventRecord_ptsz, prof::OnStream(stream),
                                   [&] { return real(event, stream); });
}

PROF_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t graph, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaGraphLaunch);
  if (HookIdle()) return real(graph, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaGraphLaunch, prof::OnStream(stream),
                                   [&] { return real(graph, stream); });
}

PROF_EXPORT cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graph, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaGraphLaunch_ptsz);
  if (HookIdle()) return real(graph, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaGraphLaunch_ptsz, prof::OnStream(stream),
                                   [&] { return real(graph, stream); });
}
