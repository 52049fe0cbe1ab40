// The runtime's error reporting: last error per thread, and error names and strings.
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/error_names.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/thread_context.h"

namespace {

// What the real runtime answers for a value that is not a cudaError_t.
constexpr const char* kUnrecognized = "unrecognized error code";

}  // namespace

SIM_EXPORT cudaError_t cudaGetLastError(void) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, "cudaGetLastError");
  cudaError_t error = sim::TakeLastError();
  call.Return(cudaSuccess);
  return error;
}

SIM_EXPORT cudaError_t cudaPeekAtLastError(void) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020, "cudaPeekAtLastError");
  cudaError_t error = sim::PeekLastError();
  call.Return(cudaSuccess);
  return error;
}

SIM_EXPORT const char* cudaGetErrorName(cudaError_t error) {
  const char* name = sim::ErrorName(error);
  return name != nullptr ? name : kUnrecognized;
}

SIM_EXPORT const char* cudaGetErrorString(cudaError_t error) {
  const char* text = sim::ErrorDescriptionText(error);
  return text != nullptr ? text : kUnrecognized;
}
