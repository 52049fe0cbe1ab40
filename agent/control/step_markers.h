// PROF_STEP_MARKER and PROF_ACTIVITIES as the hooks see them: set once at start-up by the
// library constructor (ApplyStartupSettings), before any hook runs, and read by every hook
// without synchronization after that. The marker rules' slow paths (a call or launch that
// may end a step) live here, in the control layer, so the hooks depend on control and
// never the other way round.
#ifndef PROF_AGENT_CONTROL_STEP_MARKERS_H_
#define PROF_AGENT_CONTROL_STEP_MARKERS_H_

#include <cstdint>

#include "agent/control/config.h"

namespace prof {

namespace internal {
// The api id that ends a step (kApiNone: none), and whether a kernel glob rule exists.
extern uint16_t g_marker_api;
extern bool g_marker_kernels;
// PROF_ACTIVITIES as a bit set (Activity in config.h).
extern uint32_t g_activities;
}  // namespace internal

// From the library constructor: the activities and the marker rules of `config`.
void ApplyStartupSettings(const Config& config);

// Slow path of the marker rules (counts calls; may end a step).
void OnMarkerApiCall(uint16_t api);
void OnMarkerKernelLaunch(const void* function);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_STEP_MARKERS_H_
