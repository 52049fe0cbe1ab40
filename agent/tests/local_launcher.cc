// A library that launches kernels through the CUDA runtime, loaded by
// rtld_local_program with dlopen(RTLD_LOCAL) — the way Python loads an extension module
// that brings libcudart in. libcudart is then outside the global scope, so the agent's
// dlsym(RTLD_NEXT) finds nothing and its resolver must search this library's own scope.
#include <cuda_runtime_api.h>

#include "sim/sim_ext.h"

extern "C" __attribute__((visibility("default"))) int LaunchFromLocalLibrary(int launches) {
  const void* kernel = simRegisterKernel("local_library_kernel");
  for (int i = 0; i < launches; ++i) {
    if (cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, nullptr) != cudaSuccess) return 1;
  }
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
