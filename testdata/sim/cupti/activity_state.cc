#include "testdata/sim/cupti/activity_state.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <vector>

namespace simcupti {
namespace {

std::atomic<bool> enabled_kinds[CUPTI_ACTIVITY_KIND_COUNT];
std::atomic<int> thread_id_type{CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT};
thread_local std::vector<uint64_t> external_ids[CUPTI_EXTERNAL_CORRELATION_KIND_SIZE];

bool ValidKind(CUpti_ActivityKind kind) {
  return kind > CUPTI_ACTIVITY_KIND_INVALID && kind < CUPTI_ACTIVITY_KIND_COUNT;
}

bool ValidExternalKind(CUpti_ExternalCorrelationKind kind) {
  return kind > CUPTI_EXTERNAL_CORRELATION_KIND_INVALID &&
         kind < CUPTI_EXTERNAL_CORRELATION_KIND_SIZE;
}

}  // namespace

KindSupport SupportOf(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_MEMCPY:
    case CUPTI_ACTIVITY_KIND_MEMSET:
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return KindSupport::kRecorded;
    // The legacy event/metric/source-level kinds that CUDA 13 no longer supports.
    case CUPTI_ACTIVITY_KIND_EVENT:
    case CUPTI_ACTIVITY_KIND_METRIC:
    case CUPTI_ACTIVITY_KIND_EVENT_INSTANCE:
    case CUPTI_ACTIVITY_KIND_METRIC_INSTANCE:
    case CUPTI_ACTIVITY_KIND_SOURCE_LOCATOR:
    case CUPTI_ACTIVITY_KIND_GLOBAL_ACCESS:
    case CUPTI_ACTIVITY_KIND_BRANCH:
    case CUPTI_ACTIVITY_KIND_INSTRUCTION_EXECUTION:
    case CUPTI_ACTIVITY_KIND_SHARED_ACCESS:
    case CUPTI_ACTIVITY_KIND_PC_SAMPLING:
    case CUPTI_ACTIVITY_KIND_PC_SAMPLING_RECORD_INFO:
    case CUPTI_ACTIVITY_KIND_INSTRUCTION_CORRELATION:
    case CUPTI_ACTIVITY_KIND_INSTANTANEOUS_EVENT:
    case CUPTI_ACTIVITY_KIND_INSTANTANEOUS_EVENT_INSTANCE:
    case CUPTI_ACTIVITY_KIND_INSTANTANEOUS_METRIC:
    case CUPTI_ACTIVITY_KIND_INSTANTANEOUS_METRIC_INSTANCE: return KindSupport::kLegacyUnsupported;
    default: return ValidKind(kind) ? KindSupport::kIgnored : KindSupport::kInvalid;
  }
}

void SetKindEnabled(CUpti_ActivityKind kind, bool enabled) {
  if (ValidKind(kind)) enabled_kinds[kind].store(enabled, std::memory_order_release);
}

bool KindEnabled(CUpti_ActivityKind kind) {
  return ValidKind(kind) && enabled_kinds[kind].load(std::memory_order_acquire);
}

void DisableAllKinds() {
  for (auto& kind : enabled_kinds) kind.store(false, std::memory_order_release);
}

void SetThreadIdType(CUpti_ActivityThreadIdType type) { thread_id_type.store(type); }

CUpti_ActivityThreadIdType GetThreadIdType() {
  return static_cast<CUpti_ActivityThreadIdType>(thread_id_type.load());
}

uint32_t CurrentThreadId() {
  if (GetThreadIdType() == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) {
    return static_cast<uint32_t>(syscall(SYS_gettid));
  }
  return static_cast<uint32_t>(pthread_self());
}

void PushExternalId(CUpti_ExternalCorrelationKind kind, uint64_t id) {
  if (ValidExternalKind(kind)) external_ids[kind].push_back(id);
}

bool PopExternalId(CUpti_ExternalCorrelationKind kind, uint64_t* id) {
  if (!ValidExternalKind(kind) || external_ids[kind].empty()) return false;
  if (id != nullptr) *id = external_ids[kind].back();
  external_ids[kind].pop_back();
  return true;
}

void ForEachExternalId(void (*emit)(CUpti_ExternalCorrelationKind, uint64_t, uint32_t),
                       uint32_t correlation_id) {
  for (int kind = 1; kind < CUPTI_EXTERNAL_CORRELATION_KIND_SIZE; ++kind) {
    if (!external_ids[kind].empty()) {
      emit(static_cast<CUpti_ExternalCorrelationKind>(kind), external_ids[kind].back(),
           correlation_id);
    }
  }
}

}  // namespace simcupti
