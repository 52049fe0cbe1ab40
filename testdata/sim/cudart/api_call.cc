#include "testdata/sim/cudart/api_call.h"

#include <atomic>

#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/thread_context.h"

namespace sim {
namespace {

std::atomic<const SimActivitySink*> attached_sink{nullptr};
std::atomic<uint32_t> next_correlation_id{1};

}  // namespace

uint32_t NextCorrelationId() { return next_correlation_id.fetch_add(1, std::memory_order_relaxed); }

const SimActivitySink* ActivitySink() { return attached_sink.load(std::memory_order_acquire); }

ApiCall::ApiCall(uint32_t cbid, const char* function_name, const void* params,
                 const char* symbol_name, uint32_t domain)
    : event_(), sink_(ActivitySink()) {
  event_.domain = domain;
  event_.cbid = cbid;
  event_.function_name = function_name;
  event_.symbol_name = symbol_name;
  event_.params = params;
  event_.correlation_id = NextCorrelationId();
  event_.device = static_cast<uint32_t>(CurrentDevice());
  if (sink_ == nullptr) return;
  event_.start_ns = MonotonicNowNs();
  if (sink_->api_enter != nullptr) sink_->api_enter(&event_);
}

cudaError_t ApiCall::Return(cudaError_t result) {
  if (event_.domain == kSimDomainRuntime && result != cudaErrorNotReady) RecordLastError(result);
  if (sink_ == nullptr) return result;
  event_.end_ns = MonotonicNowNs();
  event_.return_value = static_cast<int32_t>(result);
  if (sink_->api_exit != nullptr) sink_->api_exit(&event_);
  return result;
}

void ReportDeviceWork(const SimDeviceWork& work) {
  const SimActivitySink* sink = ActivitySink();
  if (sink != nullptr && sink->device_work != nullptr) sink->device_work(&work);
}

void ReportSync(const SimSyncEvent& event) {
  const SimActivitySink* sink = ActivitySink();
  if (sink != nullptr && sink->sync != nullptr) sink->sync(&event);
}

}  // namespace sim

extern "C" __attribute__((visibility("default"))) void simInternalSetActivitySink(
    const SimActivitySink* sink) {
  sim::attached_sink.store(sink, std::memory_order_release);
}
