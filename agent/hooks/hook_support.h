// What every hook shares: the export attribute, the one-branch fast path, and the
// step-marker check. Each hook: resolve the real function, return straight to it when
// the agent is idle, otherwise time it and append one record.
#ifndef PROF_AGENT_HOOKS_HOOK_SUPPORT_H_
#define PROF_AGENT_HOOKS_HOOK_SUPPORT_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "agent/control/config.h"
#include "agent/control/step_markers.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/errno_preserved.h"
#include "agent/record/flight_host.h"
#include "agent/record/flight_ring.h"
#include "agent/record/recorder.h"

#define PROF_EXPORT extern "C" __attribute__((visibility("default")))

namespace prof {

// The hooks' idle test: one relaxed load and one predictable branch while nothing is
// recorded, no marker rule exists and the flight recorder is off (the CLOSED state).
// With PROF_FLIGHT=1 every hook takes its slow path, whatever the recording state: the
// NCCL hooks for the call ring (record/flight_ring.h), the CUDA runtime hooks for the
// host rings (record/flight_host.h).
inline bool HookIdle() { return internal::g_hook_mode.load(std::memory_order_relaxed) == 0; }
inline bool NcclHookIdle() { return HookIdle(); }

// The marker rules (control/step_markers.h): one relaxed load while none exists.
inline void CheckMarkers(uint16_t api, const void* function) {
  if (!(internal::g_hook_mode.load(std::memory_order_relaxed) & internal::kModeMarkers)) return;
  if (internal::g_marker_api == api) OnMarkerApiCall(api);
  if (internal::g_marker_kernels && function) OnMarkerKernelLaunch(function);
}

// Packs a stream handle for ApiArguments (0 means "no stream argument").
inline uint64_t StreamArgument(const void* stream) {
  return reinterpret_cast<uint64_t>(stream) + 1;
}

// PROF_ACTIVITIES (control/step_markers.h), set before any hook runs.
inline bool ActivityEnabled(uint32_t activity) { return internal::g_activities & activity; }

// Nothing left to start for a recorded call: the session runs and no device activity
// waits for a CUDA call (EnsureSessionStarted, EnableDeferredDeviceActivity).
inline bool SessionReady() {
  return internal::g_session_started.load(std::memory_order_acquire) &&
         !internal::g_device_deferred.load(std::memory_order_relaxed);
}

namespace internal {
// RecordingGate's whole work, for the calls that need more than its test: marker rules
// exist, or the session or the deferred device activity is still to start. Out of line:
// each hook inlines only the test.
__attribute__((noinline)) inline bool RecordingGateSlow(uint16_t marker_id, const void* function,
                                                        uint32_t activity, bool keep_session) {
  ErrnoPreserved keep;
  CheckMarkers(marker_id, function);  // may end a step
  if ((Recording() && ActivityEnabled(activity)) || keep_session) {
    EnsureSessionStarted();
    EnableDeferredDeviceActivity();
  }
  return Recording() && ActivityEnabled(activity);
}
}  // namespace internal

// The one recording gate, passed by every hook (CUDA runtime and NCCL) after its idle test
// and before its real call: the marker rules first (a hit may end a step, and so change
// whether this call is recorded), then, for a call that will be recorded under `activity`
// or that `keep_session` (the flight recorder) also needs, the session and the deferred
// device activity are started, before the real call, so CUPTI sees its device work.
// Returns whether the call is recorded. The program's errno is left as it was.
// Inline, one load of the mode: with no marker rule and nothing to start (every recorded
// call after the first), the answer is the mode's recording bit and the activity's, and
// nothing here can touch errno.
// `mode`: g_hook_mode as the caller loaded it.
inline bool RecordingGate(uint8_t mode, uint16_t marker_id, const void* function, uint32_t activity,
                          bool keep_session) {
  const bool record = (mode & internal::kModeRecording) && ActivityEnabled(activity);
  if (__builtin_expect(
          !(mode & internal::kModeMarkers) && (!(record || keep_session) || SessionReady()), 1)) {
    return record;
  }
  return internal::RecordingGateSlow(marker_id, function, activity, keep_session);
}

inline bool RecordingGate(uint16_t marker_id, const void* function, uint32_t activity,
                          bool keep_session = false) {
  return RecordingGate(internal::g_hook_mode.load(std::memory_order_relaxed), marker_id, function,
                       activity, keep_session);
}

// Times `call` and records it with `record_call(start_ns, end_ns, status)` (when recording;
// with only marker rules active the call is not timed). The program's errno is kept around
// the agent's work on both sides of the real call (errno_preserved.h): the real function
// sees the caller's errno and the caller sees the real function's; `record_call` keeps it
// itself where it may change it (RecordLaunch's common case cannot).
// With PROF_FLIGHT=1 the call is also kept in the thread's host ring (flight_host.h),
// opened before the real call so that one which never returns (a synchronize behind a
// hang) is seen running; and it keeps the session up, as an NCCL call does, so a program
// that never steps still has the writer and the flush handler that dump the rings.
template <typename Result, typename Call, typename RecordCall>
Result TimedCall(uint16_t api, uint64_t stream_plus_one, const void* function, Call&& call,
                 RecordCall&& record_call) {
  // One load for both: the mode's flight bit is FlightOn().
  const uint8_t mode = internal::g_hook_mode.load(std::memory_order_relaxed);
  const bool flight = mode & internal::kModeFlight;
  const bool record = RecordingGate(mode, api, function, kActivityCudaApi, flight);
  if (!record && !flight) return call();
  if (record) AwaitCorrelationId();
  const uint64_t start = MonotonicNs();
  const uint64_t kept = flight ? FlightHostCallEnter(api, stream_plus_one, function, start) : 0;
  const Result result = call();
  const uint64_t end = MonotonicNs();
  if (flight) {
    ErrnoPreserved keep;
    FlightHostCallEnd(kept, end, static_cast<int32_t>(result));
  }
  if (record) record_call(start, end, static_cast<int32_t>(result));
  return result;
}

// TimedCall for a call recorded from its ApiArguments (RecordApiCall).
template <typename Result, typename Call>
Result TimedApiCall(uint16_t api, const ApiArguments& arguments, Call&& call) {
  return TimedCall<Result>(api, arguments.stream_plus_one, arguments.function, call,
                           [&](uint64_t start, uint64_t end, int32_t status) {
                             ErrnoPreserved keep;
                             RecordApiCall(api, start, end, status, arguments);
                           });
}

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_HOOK_SUPPORT_H_
