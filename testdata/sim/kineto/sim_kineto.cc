// libsimkineto.so: see include/sim/sim_kineto.h.
#include "sim/sim_kineto.h"

#include <cupti.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#define SIM_KINETO_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t kBufferBytes = 1 << 20;

// Kineto's process-wide state: initialized once, never reset (init.cpp keeps its
// CuptiCallbackApi singleton, subscriber included, for the life of the process).
bool initialized = false;
bool gpu_capable = false;
CUpti_SubscriberHandle subscriber = nullptr;
std::vector<CUpti_ActivityKind> enabled;

// CuptiActivityApi's buffers: those CUPTI holds (allocated) and those it gave back (ready).
// Completions come on CUPTI's thread, hence the mutex.
std::mutex buffers_mutex;
std::set<uint8_t*> allocated;
std::vector<std::pair<uint8_t*, size_t>> ready;
long unknown_buffers = 0;

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
  std::lock_guard<std::mutex> lock(buffers_mutex);
  allocated.insert(*buffer);
}

// A buffer Kineto did not hand out (another client's) is logged and left alone by Kineto;
// here it is counted so a test sees it.
void CUPTIAPI OnBufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::lock_guard<std::mutex> lock(buffers_mutex);
  if (allocated.erase(buffer) == 0) {
    ++unknown_buffers;
    return;
  }
  ready.emplace_back(buffer, valid);
}

bool AnyAllocated() {
  std::lock_guard<std::mutex> lock(buffers_mutex);
  return !allocated.empty();
}

// The ready buffers, taken; their kernel records counted.
long TakeReady() {
  std::vector<std::pair<uint8_t*, size_t>> taken;
  {
    std::lock_guard<std::mutex> lock(buffers_mutex);
    taken.swap(ready);
  }
  long kernels = 0;
  for (const auto& buffer : taken) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer.first, buffer.second, &record) == CUPTI_SUCCESS) {
      if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ++kernels;
    }
    std::free(buffer.first);
  }
  return kernels;
}

void Enable(CUpti_ActivityKind kind) {
  if (cuptiActivityEnable(kind) == CUPTI_SUCCESS) enabled.push_back(kind);
}

}  // namespace

SIM_KINETO_EXPORT int simKinetoInit(void) {
  if (initialized) return gpu_capable ? 1 : 0;
  initialized = true;
  if (cuptiSubscribe(&subscriber, &OnCallback, nullptr) != CUPTI_SUCCESS) {
    subscriber = nullptr;
    return 0;
  }
  // A failure here leaves the subscriber in place, as Kineto does, and CPU-only.
  gpu_capable = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                    CUPTI_CBID_RESOURCE_CONTEXT_CREATED) == CUPTI_SUCCESS;
  return gpu_capable ? 1 : 0;
}

SIM_KINETO_EXPORT void simKinetoStartTrace(int cuda_activities) {
  if (!gpu_capable) return;
  cuptiActivityRegisterCallbacks(&OnBufferRequested, &OnBufferCompleted);
  Enable(CUPTI_ACTIVITY_KIND_RUNTIME);
  Enable(CUPTI_ACTIVITY_KIND_DRIVER);
  if (cuda_activities) {
    Enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    Enable(CUPTI_ACTIVITY_KIND_MEMCPY);
  }
  // startTrace after the warm-up: what was recorded so far is thrown away.
  if (AnyAllocated()) cuptiActivityFlushAll(0);
  TakeReady();
}

SIM_KINETO_EXPORT long simKinetoStopTrace(void) {
  if (!gpu_capable) return 0;
  for (CUpti_ActivityKind kind : enabled) cuptiActivityDisable(kind);
  enabled.clear();
  // Kineto flushes only while CUPTI holds a buffer of its own.
  if (AnyAllocated()) cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  return TakeReady();
}

SIM_KINETO_EXPORT long simKinetoUnknownBuffers(void) {
  std::lock_guard<std::mutex> lock(buffers_mutex);
  return unknown_buffers;
}

SIM_KINETO_EXPORT void simKinetoShutdown(void) {
  if (subscriber == nullptr) return;
  cuptiUnsubscribe(subscriber);
  subscriber = nullptr;
  gpu_capable = false;
}
