#include "testdata/sim/cupti/runtime_link.h"

#include <dlfcn.h>

#include <atomic>

#include "testdata/sim/bridge/sim_bridge.h"
#include "testdata/sim/cupti/callback_dispatch.h"
#include "testdata/sim/cupti/record_flavour.h"
#include "testdata/sim/cupti/record_builder.h"

namespace simcupti {
namespace {

std::atomic<bool> attached{false};
std::atomic<SimStreamInfoFn> stream_info{nullptr};

void OnApiEnter(SimApiCallEvent* event) { DispatchApiCallback(CUPTI_API_ENTER, event); }

void OnApiExit(SimApiCallEvent* event) {
  DispatchApiCallback(CUPTI_API_EXIT, event);
  RecordApiCall(*event);
}

void OnDeviceWork(const SimDeviceWork* work) { RecordDeviceWork(*work); }

void OnSync(const SimSyncEvent* event) { RecordSync(*event); }

const SimActivitySink kSink{OnApiEnter, OnApiExit, OnDeviceWork, OnSync};

// RTLD_DEFAULT finds a runtime the program linked; RTLD_NOLOAD also finds one that was
// dlopened privately (RTLD_LOCAL), as Python's ctypes does: the runtime of this CUPTI's own
// major (libcupti.so.12 serves libcudart.so.12).
void* FindRuntimeSymbol(const char* name) {
  void* symbol = dlsym(RTLD_DEFAULT, name);
  if (symbol != nullptr) return symbol;
  void* runtime = dlopen(kRuntimeSoname, RTLD_LAZY | RTLD_NOLOAD);
  return runtime == nullptr ? nullptr : dlsym(runtime, name);
}

}  // namespace

bool EnsureAttachedToRuntime() {
  if (attached.load(std::memory_order_acquire)) return true;
  auto set_sink =
      reinterpret_cast<SimSetActivitySinkFn>(FindRuntimeSymbol("simInternalSetActivitySink"));
  if (set_sink == nullptr) return false;
  stream_info.store(reinterpret_cast<SimStreamInfoFn>(FindRuntimeSymbol("simInternalStreamInfo")));
  set_sink(&kSink);
  attached.store(true, std::memory_order_release);
  return true;
}

bool LookUpStream(const void* stream, uint32_t* stream_id, uint32_t* device, uint32_t* context_id) {
  EnsureAttachedToRuntime();
  SimStreamInfoFn info = stream_info.load();
  return info != nullptr && info(stream, stream_id, device, context_id) == 0;
}

}  // namespace simcupti
