// Version, result strings, timestamps, ids of contexts/devices/streams, finalization.
#include <cupti.h>

#include "testdata/sim/bridge/sim_bridge.h"
#include "testdata/sim/cupti/activity_buffers.h"
#include "testdata/sim/cupti/activity_state.h"
#include "testdata/sim/cupti/cupti_clock.h"
#include "testdata/sim/cupti/export.h"
#include "testdata/sim/cupti/record_flavour.h"
#include "testdata/sim/cupti/runtime_link.h"

namespace {

struct ResultText {
  CUptiResult result;
  const char* text;
};

constexpr ResultText kResultTexts[] = {
    {CUPTI_SUCCESS, "CUPTI_SUCCESS"},
    {CUPTI_ERROR_INVALID_PARAMETER, "CUPTI_ERROR_INVALID_PARAMETER"},
    {CUPTI_ERROR_INVALID_DEVICE, "CUPTI_ERROR_INVALID_DEVICE"},
    {CUPTI_ERROR_INVALID_CONTEXT, "CUPTI_ERROR_INVALID_CONTEXT"},
    {CUPTI_ERROR_MAX_LIMIT_REACHED, "CUPTI_ERROR_MAX_LIMIT_REACHED"},
    {CUPTI_ERROR_NOT_INITIALIZED, "CUPTI_ERROR_NOT_INITIALIZED"},
    {CUPTI_ERROR_QUEUE_EMPTY, "CUPTI_ERROR_QUEUE_EMPTY"},
    {CUPTI_ERROR_INVALID_STREAM, "CUPTI_ERROR_INVALID_STREAM"},
    {CUPTI_ERROR_INVALID_KIND, "CUPTI_ERROR_INVALID_KIND"},
    {CUPTI_ERROR_NOT_SUPPORTED, "CUPTI_ERROR_NOT_SUPPORTED"},
    {CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED, "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED"},
    {CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
     "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"},
    {CUPTI_ERROR_UNKNOWN, "CUPTI_ERROR_UNKNOWN"},
};

}  // namespace

SIM_CUPTI_EXPORT CUptiResult cuptiGetVersion(uint32_t* version) {
  if (version == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *version = simcupti::kApiVersion;
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetResultString(CUptiResult result, const char** text) {
  if (text == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  for (const ResultText& entry : kResultTexts) {
    if (entry.result == result) {
      *text = entry.text;
      return CUPTI_SUCCESS;
    }
  }
  *text = "CUPTI_ERROR_UNKNOWN";
  return CUPTI_ERROR_INVALID_PARAMETER;
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetLastError(void) { return CUPTI_SUCCESS; }

SIM_CUPTI_EXPORT CUptiResult cuptiGetTimestamp(uint64_t* timestamp) {
  if (timestamp == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *timestamp = simcupti::CuptiNowNs();
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetContextId(CUcontext context, uint32_t* context_id) {
  if (context_id == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  int device = sim::DeviceForContextHandle(context);
  if (device < 0) return CUPTI_ERROR_INVALID_CONTEXT;
  *context_id = sim::ContextIdForDevice(static_cast<uint32_t>(device));
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetDeviceId(CUcontext context, uint32_t* device_id) {
  if (device_id == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  int device = context == nullptr ? 0 : sim::DeviceForContextHandle(context);
  if (device < 0) return CUPTI_ERROR_INVALID_CONTEXT;
  *device_id = static_cast<uint32_t>(device);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetStreamIdEx(CUcontext /*context*/, CUstream stream,
                                                uint8_t /*per_thread_stream*/,
                                                uint32_t* stream_id) {
  if (stream_id == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  if (!simcupti::LookUpStream(stream, stream_id, nullptr, nullptr)) {
    return CUPTI_ERROR_INVALID_STREAM;
  }
  return CUPTI_SUCCESS;
}

// Detaches completely: no kinds, no pending records. A later enable re-attaches.
SIM_CUPTI_EXPORT CUptiResult cuptiFinalize(void) {
  simcupti::DisableAllKinds();
  simcupti::FlushRecords(true);
  return CUPTI_SUCCESS;
}
