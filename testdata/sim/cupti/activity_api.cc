// The exported Activity API.
#include <cupti_activity.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "testdata/sim/cupti/activity_buffers.h"
#include "testdata/sim/cupti/activity_state.h"
#include "testdata/sim/cupti/cupti_clock.h"
#include "testdata/sim/cupti/cupti_config.h"
#include "testdata/sim/cupti/export.h"
#include "testdata/sim/cupti/runtime_link.h"

namespace {

// Attribute values are accepted and stored; only reads give them back.
std::mutex attribute_mutex;
std::unordered_map<int, uint64_t>& Attributes() {
  static auto* attributes = new std::unordered_map<int, uint64_t>{
      {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, 3200000},
      {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, 250},
  };
  return *attributes;
}

bool IsKernelKind(CUpti_ActivityKind kind) {
  return kind == CUPTI_ACTIVITY_KIND_KERNEL || kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
}

// Turning kernel records on takes the caller SIM_CUPTI_ENABLE_MS, as real CUPTI's
// instrumentation of the loaded kernels does: each time they go from off to on.
void PayForKernelInstrumentation(CUpti_ActivityKind kind, bool enabled) {
  if (!enabled || !IsKernelKind(kind) || simcupti::Config().enable_ms == 0) return;
  if (simcupti::KindEnabled(CUPTI_ACTIVITY_KIND_KERNEL) ||
      simcupti::KindEnabled(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) {
    return;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(simcupti::Config().enable_ms));
}

CUptiResult SetKind(CUpti_ActivityKind kind, bool enabled) {
  switch (simcupti::SupportOf(kind)) {
    case simcupti::KindSupport::kRecorded:
      simcupti::EnsureAttachedToRuntime();
      PayForKernelInstrumentation(kind, enabled);
      simcupti::SetKindEnabled(kind, enabled);
      return CUPTI_SUCCESS;
    case simcupti::KindSupport::kIgnored: return CUPTI_SUCCESS;
    case simcupti::KindSupport::kLegacyUnsupported:
      return CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED;
    default: return CUPTI_ERROR_INVALID_KIND;
  }
}

size_t Align8(size_t size) { return (size + 7) & ~size_t{7}; }

}  // namespace

SIM_CUPTI_EXPORT CUptiResult cuptiActivityRegisterCallbacks(
    CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed) {
  if (requested == nullptr || completed == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  simcupti::EnsureAttachedToRuntime();
  simcupti::SetBufferCallbacks(requested, completed);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
  return SetKind(kind, true);
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
  return SetKind(kind, false);
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityEnableContext(CUcontext /*context*/,
                                                        CUpti_ActivityKind kind) {
  return SetKind(kind, true);
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityDisableContext(CUcontext /*context*/,
                                                         CUpti_ActivityKind kind) {
  return SetKind(kind, false);
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityFlushAll(uint32_t flag) {
  simcupti::FlushRecords((flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityFlush(CUcontext /*context*/, uint32_t /*stream_id*/,
                                                uint32_t flag) {
  return cuptiActivityFlushAll(flag);
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityFlushPeriod(uint32_t /*time_ms*/) {
  return CUPTI_SUCCESS;  // the background thread's period comes from SIM_CUPTI_FLUSH_PERIOD_MS
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid_size,
                                                        CUpti_Activity** record) {
  if (buffer == nullptr || record == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  uint8_t* next = buffer;
  if (*record != nullptr) {
    next = reinterpret_cast<uint8_t*>(*record) + Align8(simcupti::RecordSize(*record));
  }
  if (next + sizeof(CUpti_Activity) > buffer + valid_size) {
    *record = nullptr;
    return CUPTI_ERROR_MAX_LIMIT_REACHED;
  }
  auto* candidate = reinterpret_cast<CUpti_Activity*>(next);
  size_t size = simcupti::RecordSize(candidate);
  if (size == 0) return CUPTI_ERROR_INVALID_KIND;
  if (next + size > buffer + valid_size) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = candidate;
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext /*context*/,
                                                               uint32_t /*stream_id*/,
                                                               size_t* dropped) {
  if (dropped == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *dropped = simcupti::TakeDroppedCount();
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivitySetAttribute(CUpti_ActivityAttribute attribute,
                                                       size_t* value_size, void* value) {
  if (value_size == nullptr || value == nullptr || *value_size == 0 || *value_size > 8) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  uint64_t stored = 0;
  std::memcpy(&stored, value, *value_size);
  std::lock_guard<std::mutex> lock(attribute_mutex);
  Attributes()[attribute] = stored;
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiActivityGetAttribute(CUpti_ActivityAttribute attribute,
                                                       size_t* value_size, void* value) {
  if (value_size == nullptr || value == nullptr || *value_size == 0 || *value_size > 8) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  std::lock_guard<std::mutex> lock(attribute_mutex);
  auto found = Attributes().find(attribute);
  uint64_t stored = found == Attributes().end() ? 0 : found->second;
  std::memcpy(value, &stored, *value_size);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult
cuptiActivityPushExternalCorrelationId(CUpti_ExternalCorrelationKind kind, uint64_t id) {
  if (kind <= CUPTI_EXTERNAL_CORRELATION_KIND_INVALID ||
      kind >= CUPTI_EXTERNAL_CORRELATION_KIND_SIZE) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  simcupti::PushExternalId(kind, id);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult
cuptiActivityPopExternalCorrelationId(CUpti_ExternalCorrelationKind kind, uint64_t* last_id) {
  return simcupti::PopExternalId(kind, last_id) ? CUPTI_SUCCESS : CUPTI_ERROR_QUEUE_EMPTY;
}

SIM_CUPTI_EXPORT CUptiResult
cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc callback) {
  simcupti::UseTimestampCallback(callback);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
  if (type != CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT &&
      type != CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  simcupti::SetThreadIdType(type);
  return CUPTI_SUCCESS;
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetThreadIdType(CUpti_ActivityThreadIdType* type) {
  if (type == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *type = simcupti::GetThreadIdType();
  return CUPTI_SUCCESS;
}
