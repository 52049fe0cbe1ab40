// Device query and selection: one or more H200-like devices (SIM_DEVICE_COUNT).
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include <cstdio>
#include <cstring>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/config.h"
#include "testdata/sim/cudart/device_properties.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/thread_context.h"

namespace {

// The versions a CUDA 13.0 runtime and a matching driver report.
constexpr int kRuntimeVersion = 13000;
constexpr int kDriverVersion = 13000;

bool ValidDevice(int device) { return device >= 0 && device < sim::Config().device_count; }

}  // namespace

SIM_EXPORT cudaError_t cudaGetDeviceCount(int* count) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, "cudaGetDeviceCount");
  if (count == nullptr) return call.Return(cudaErrorInvalidValue);
  *count = sim::Config().device_count;
  return call.Return(*count == 0 ? cudaErrorNoDevice : cudaSuccess);
}

SIM_EXPORT cudaError_t cudaGetDevice(int* device) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, "cudaGetDevice");
  if (device == nullptr) return call.Return(cudaErrorInvalidValue);
  if (sim::Config().device_count == 0) return call.Return(cudaErrorNoDevice);
  *device = sim::CurrentDevice();
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaSetDevice(int device) {
  cudaSetDevice_v3020_params params{device};
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020, "cudaSetDevice", &params);
  if (sim::Config().device_count == 0) return call.Return(cudaErrorNoDevice);
  if (!ValidDevice(device)) return call.Return(cudaErrorInvalidDevice);
  sim::SetCurrentDevice(device);
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000,
                    "cudaGetDeviceProperties");
  if (prop == nullptr) return call.Return(cudaErrorInvalidValue);
  if (!ValidDevice(device)) return call.Return(cudaErrorInvalidDevice);
  sim::FillDeviceProperties(device, prop);
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
                    "cudaDeviceGetAttribute");
  if (value == nullptr) return call.Return(cudaErrorInvalidValue);
  if (!ValidDevice(device)) return call.Return(cudaErrorInvalidDevice);
  return call.Return(sim::DeviceAttribute(device, attr, value) ? cudaSuccess
                                                               : cudaErrorInvalidValue);
}

SIM_EXPORT cudaError_t cudaDriverGetVersion(int* driver_version) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020, "cudaDriverGetVersion");
  if (driver_version == nullptr) return call.Return(cudaErrorInvalidValue);
  *driver_version = kDriverVersion;
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaRuntimeGetVersion(int* runtime_version) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020, "cudaRuntimeGetVersion");
  if (runtime_version == nullptr) return call.Return(cudaErrorInvalidValue);
  *runtime_version = kRuntimeVersion;
  return call.Return(cudaSuccess);
}

SIM_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000, "cudaGetDeviceFlags");
  if (flags == nullptr) return call.Return(cudaErrorInvalidValue);
  *flags = cudaDeviceScheduleAuto;
  return call.Return(cudaSuccess);
}
