// The private interface between the simulated libcudart.so.13 and libcupti.so.13.
//
// The runtime reports what happens (API calls, device work, host synchronization) to one
// optional sink. libcupti.so.13 installs that sink by looking up the runtime's exported
// simInternalSetActivitySink with dlsym, so a program that never loads CUPTI pays one
// relaxed atomic load per call. Plain structs and integers only: both libraries compile
// this header, and neither sees the other's C++ types.
#ifndef PROF_TESTDATA_SIM_BRIDGE_SIM_BRIDGE_H_
#define PROF_TESTDATA_SIM_BRIDGE_SIM_BRIDGE_H_

#include <stddef.h>
#include <stdint.h>

extern "C" {

// Matches CUpti_CallbackDomain's values (DRIVER_API = 1, RUNTIME_API = 2); the simulated
// CUPTI static_asserts this.
enum SimApiDomain : uint32_t { kSimDomainDriver = 1, kSimDomainRuntime = 2 };

// One runtime or driver API call; the same object is passed to enter and exit, so the
// correlation_data slot persists between them like CUPTI's correlationData.
struct SimApiCallEvent {
  uint32_t domain;  // SimApiDomain
  uint32_t cbid;    // CUPTI_RUNTIME_TRACE_CBID_* or CUPTI_DRIVER_TRACE_CBID_*
  const char* function_name;
  const char* symbol_name;  // kernel name for launches, else NULL
  const void* params;       // the matching *_params struct, or NULL
  uint32_t correlation_id;
  uint32_t device;
  uint64_t start_ns;     // CLOCK_MONOTONIC; set before enter
  uint64_t end_ns;       // set before exit
  int32_t return_value;  // cudaError_t / CUresult; valid at exit
  uint64_t correlation_data;
};

enum SimDeviceWorkKind : uint32_t {
  kSimWorkKernel = 1,
  kSimWorkMemcpy = 2,
  kSimWorkMemset = 3,
};

// One completed-or-scheduled item of device work.
struct SimDeviceWork {
  uint32_t kind;  // SimDeviceWorkKind
  uint32_t correlation_id;
  uint64_t queued_ns;  // CLOCK_MONOTONIC
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t device;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t graph_id;  // 0 unless launched by a graph
  uint64_t graph_node_id;
  // Kernels.
  const char* name;  // owned by the runtime, never freed
  int32_t grid[3];
  int32_t block[3];
  int32_t dynamic_shared_memory;
  // Copies and memsets.
  uint64_t bytes;
  uint32_t copy_kind;  // CUPTI_ACTIVITY_MEMCPY_KIND_*
  uint32_t src_kind;   // CUPTI_ACTIVITY_MEMORY_KIND_*
  uint32_t dst_kind;   // CUPTI_ACTIVITY_MEMORY_KIND_* (memset: the target's kind)
  uint32_t is_async;
  uint32_t memset_value;
};

// A host-side wait (matches CUpti_ActivitySynchronizationType's values).
struct SimSyncEvent {
  uint32_t type;
  uint32_t correlation_id;
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t context_id;
  uint32_t stream_id;  // UINT32_MAX when not stream-specific
  uint32_t event_id;   // UINT32_MAX when no event involved
  int32_t return_value;
};

struct SimActivitySink {
  void (*api_enter)(SimApiCallEvent* event);
  void (*api_exit)(SimApiCallEvent* event);
  void (*device_work)(const SimDeviceWork* work);
  void (*sync)(const SimSyncEvent* event);
};

// Exported by the runtime. Passing NULL detaches. The sink must stay valid forever.
typedef void (*SimSetActivitySinkFn)(const SimActivitySink* sink);
void simInternalSetActivitySink(const SimActivitySink* sink);

// Exported by the runtime: what CUPTI reports for a stream handle. Returns 0, or -1 for an
// unknown or destroyed stream.
typedef int (*SimStreamInfoFn)(const void* stream, uint32_t* stream_id, uint32_t* device,
                               uint32_t* context_id);
int simInternalStreamInfo(const void* stream, uint32_t* stream_id, uint32_t* device,
                          uint32_t* context_id);
}  // extern "C"

namespace sim {

// Each device has one (primary) context; its CUcontext is a fake, never-dereferenced
// handle that both libraries can encode and decode.
constexpr uintptr_t kContextHandleBase = 0x5C000000u;
inline uint32_t ContextIdForDevice(uint32_t device) { return device + 1; }
inline void* ContextHandleForDevice(uint32_t device) {
  return reinterpret_cast<void*>(kContextHandleBase + 0x100u * (device + 1));
}
inline int DeviceForContextHandle(const void* context) {
  uintptr_t value = reinterpret_cast<uintptr_t>(context);
  if (value <= kContextHandleBase || (value - kContextHandleBase) % 0x100u != 0) return -1;
  return static_cast<int>((value - kContextHandleBase) / 0x100u) - 1;
}

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_BRIDGE_SIM_BRIDGE_H_
