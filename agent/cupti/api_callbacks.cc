#include "agent/cupti/api_callbacks.h"

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstring>

#include "agent/cupti/fork_guard.h"
#include "agent/record/api_ids.h"
#include "agent/record/recorder.h"

namespace prof {
namespace {

std::atomic<bool> g_record_unhooked{false};
std::atomic<uint32_t> g_generation{0};

// Runtime calls in progress on this thread, valid for subscription t_generation.
thread_local uint32_t t_runtime_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint32_t t_generation __attribute__((tls_model("initial-exec"))) = 0;

// Appends the API call record (kApiNone, name inline) for a call that ends now.
void RecordUnhookedCall(const CUpti_CallbackData& data, bool driver, uint64_t start_ns) {
  char buffer[256];
  const char* name = CallableName(data.functionName, buffer, sizeof(buffer));
  size_t size;
  ApiCallRecord* record = BeginRecord<ApiCallRecord>(name ? name : "", &size);
  if (!record) return;
  record->api = kApiNone;
  record->subkind = driver ? kApiSubkindDriver : kApiSubkindRuntime;
  record->start_ns = start_ns;
  record->end_ns = MonotonicNs();
  // cudaError_t and CUresult are both int-sized enums.
  record->status =
      data.functionReturnValue ? *static_cast<const int32_t*>(data.functionReturnValue) : 0;
  record->correlation_id = data.correlationId;
  record->stream_plus_one = 0;
  record->bytes = 0;
  record->copy_kind_plus_one = 0;
  record->function = nullptr;
  record->launch = LaunchGeometry{};
  CommitRecord(size);
}

void OnEnter(bool driver, const CUpti_CallbackData& data) {
  // A driver call inside a runtime call is that call's implementation: not a call of its
  // own. Only the outermost runtime call is the one a hook around it may be timing; it is
  // when the hook marked the id awaited. Whether a function is interposed says nothing:
  // cuBLAS's cudaLaunchKernel (its own static runtime) reaches no hook.
  const bool outermost = driver ? t_runtime_depth == 0 : ++t_runtime_depth == 1;
  const bool hooked = !driver && internal::t_correlation_id == internal::kAwaitingCorrelation;
  if (outermost) internal::t_correlation_id = data.correlationId;
  const bool record =
      outermost && !hooked && Recording() && g_record_unhooked.load(std::memory_order_relaxed);
  // The slot persists from enter to exit of this call: 0 means "not recorded".
  if (data.correlationData) *data.correlationData = record ? MonotonicNs() : 0;
}

void OnExit(bool driver, const CUpti_CallbackData& data) {
  if (!driver && t_runtime_depth > 0) --t_runtime_depth;
  const uint64_t start_ns = data.correlationData ? *data.correlationData : 0;
  if (start_ns != 0) RecordUnhookedCall(data, driver, start_ns);
}

}  // namespace

void StartApiCallbacks(bool record_unhooked_calls) {
  g_record_unhooked.store(record_unhooked_calls, std::memory_order_relaxed);
  g_generation.fetch_add(1, std::memory_order_relaxed);
}

void CUPTIAPI OnApiCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                            const void* data) {
  if (!data || CuptiInheritedFromParent()) return;
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const uint32_t generation = g_generation.load(std::memory_order_relaxed);
  if (t_generation != generation) {
    t_generation = generation;
    t_runtime_depth = 0;
  }
  const auto& callback_data = *static_cast<const CUpti_CallbackData*>(data);
  const bool driver = domain == CUPTI_CB_DOMAIN_DRIVER_API;
  if (callback_data.callbackSite == CUPTI_API_ENTER) {
    OnEnter(driver, callback_data);
  } else {
    OnExit(driver, callback_data);
  }
}

const char* CallableName(const char* function_name, char* buffer, size_t buffer_size) {
  if (!function_name) return nullptr;
  const size_t length = std::strlen(function_name);
  size_t digits = 0;
  while (digits < length &&
         std::isdigit(static_cast<unsigned char>(function_name[length - 1 - digits]))) {
    ++digits;
  }
  // "_v" + at least 4 digits: CUPTI's API-version suffix, not part of the name the user
  // called ("cuMemAlloc_v2" keeps its ABI suffix).
  const bool versioned = digits >= 4 && length >= digits + 2 &&
                         function_name[length - digits - 1] == 'v' &&
                         function_name[length - digits - 2] == '_';
  if (!versioned) return function_name;
  const size_t kept = length - digits - 2;
  if (kept + 1 > buffer_size) return function_name;
  std::memcpy(buffer, function_name, kept);
  buffer[kept] = '\0';
  return buffer;
}

}  // namespace prof
