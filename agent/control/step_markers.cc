#include "agent/control/step_markers.h"

#include <string>
#include <vector>

#include "agent/control/log.h"
#include "agent/control/session.h"
#include "agent/hooks/nccl_functions.h"
#include "agent/record/api_ids.h"
#include "agent/record/kernel_names.h"
#include "agent/record/recorder.h"

namespace prof {
namespace internal {
uint16_t g_marker_api = kApiNone;
bool g_marker_kernels = false;
uint32_t g_activities = kActivityAll;
}  // namespace internal

namespace {

void ApplyStepMarkers(const Config& config) {
  std::vector<std::string> globs;
  for (const StepMarkerRule& rule : config.step_markers) {
    if (!rule.kernel_glob.empty()) globs.push_back(rule.kernel_glob);
    if (!rule.api.empty() && internal::g_marker_api == kApiNone) {
      internal::g_marker_api = ApiIdByName(rule.api.c_str());
      if (internal::g_marker_api == kApiNone) internal::g_marker_api = NcclMarkerApiId(rule.api);
      if (internal::g_marker_api == kApiNone) {
        Log(LogLevel::kWarn,
            "PROF_STEP_MARKER='api:%s' names a call the agent does not "
            "intercept; using no api rule",
            rule.api.c_str());
      }
    }
  }
  SetStepMarkerKernelGlobs(globs);
  internal::g_marker_kernels = !globs.empty();
  if (internal::g_marker_api != kApiNone || internal::g_marker_kernels) {
    internal::g_hook_mode.fetch_or(internal::kModeMarkers);
  }
}

}  // namespace

void ApplyStartupSettings(const Config& config) {
  internal::g_activities = config.activities;
  ApplyStepMarkers(config);
}

void OnMarkerApiCall(uint16_t api) {
  (void)api;
  Session* session = Session::Current();
  if (session && session->CountMarkerCall()) session->steps().Step(0);
}

void OnMarkerKernelLaunch(const void* function) {
  if (!IsStepMarkerKernel(function)) return;
  if (Session* session = Session::Current()) session->steps().Step(0);
}

}  // namespace prof
