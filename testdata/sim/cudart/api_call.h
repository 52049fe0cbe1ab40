// Brackets one API call for CUPTI: assigns its correlation id, reports enter and exit to
// the activity sink (when CUPTI is attached), and records the runtime's last error.
//
// Usage inside an entry point:
//   ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc", &params);
//   ...
//   return call.Return(cudaSuccess);
#ifndef PROF_TESTDATA_SIM_CUDART_API_CALL_H_
#define PROF_TESTDATA_SIM_CUDART_API_CALL_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "testdata/sim/bridge/sim_bridge.h"

namespace sim {

class ApiCall {
 public:
  ApiCall(uint32_t cbid, const char* function_name, const void* params = nullptr,
          const char* symbol_name = nullptr, uint32_t domain = kSimDomainRuntime);
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

  uint32_t correlation_id() const { return event_.correlation_id; }

  // Reports the exit and returns `result`. Runtime-domain failures become the thread's
  // last error, except cudaErrorNotReady, which the real runtime does not record.
  cudaError_t Return(cudaError_t result);

 private:
  SimApiCallEvent event_;
  const SimActivitySink* sink_;
};

// A fresh correlation id (shared by runtime and driver calls, like CUPTI's).
uint32_t NextCorrelationId();

// The attached sink, or NULL. One relaxed atomic load.
const SimActivitySink* ActivitySink();

// Sends device work / a host wait to CUPTI, if attached. Call without holding locks.
void ReportDeviceWork(const SimDeviceWork& work);
void ReportSync(const SimSyncEvent& event);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_API_CALL_H_
