// libsimkineto.so: see include/sim/sim_kineto.h.
#include "sim/sim_kineto.h"

#include <cupti.h>

#include <atomic>
#include <cstdlib>
#include <vector>

#define SIM_KINETO_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t kBufferBytes = 1 << 20;

CUpti_SubscriberHandle subscriber = nullptr;
bool gpu_capable = false;
std::vector<CUpti_ActivityKind> enabled;
std::atomic<long> kernels{0};

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI OnBufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ++kernels;
  }
  std::free(buffer);
}

void Enable(CUpti_ActivityKind kind) {
  if (cuptiActivityEnable(kind) == CUPTI_SUCCESS) enabled.push_back(kind);
}

}  // namespace

SIM_KINETO_EXPORT int simKinetoInit(void) {
  if (subscriber != nullptr) return 1;
  gpu_capable = cuptiSubscribe(&subscriber, &OnCallback, nullptr) == CUPTI_SUCCESS;
  if (!gpu_capable) subscriber = nullptr;
  return gpu_capable ? 1 : 0;
}

SIM_KINETO_EXPORT void simKinetoStartTrace(int cuda_activities) {
  kernels = 0;
  if (!gpu_capable) return;
  cuptiActivityRegisterCallbacks(&OnBufferRequested, &OnBufferCompleted);
  Enable(CUPTI_ACTIVITY_KIND_RUNTIME);
  Enable(CUPTI_ACTIVITY_KIND_DRIVER);
  if (cuda_activities) {
    Enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    Enable(CUPTI_ACTIVITY_KIND_MEMCPY);
  }
}

SIM_KINETO_EXPORT long simKinetoStopTrace(void) {
  if (!gpu_capable) return 0;
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (CUpti_ActivityKind kind : enabled) cuptiActivityDisable(kind);
  enabled.clear();
  return kernels.load();
}

SIM_KINETO_EXPORT void simKinetoShutdown(void) {
  if (subscriber == nullptr) return;
  cuptiUnsubscribe(subscriber);
  subscriber = nullptr;
  gpu_capable = false;
}
