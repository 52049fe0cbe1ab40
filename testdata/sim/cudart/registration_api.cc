// The hidden entry points nvcc-generated host code calls: module and kernel registration,
// and the <<<>>> launch configuration stack. With these, a CUDA program built by nvcc with
// -cudart shared runs against the simulator and its launches carry real kernel names.
#include <cuda_runtime_api.h>

#include <vector>

#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/kernel_registry.h"

// Signatures as declared in crt/host_runtime.h and crt/device_functions.h (those headers
// only compile under nvcc, so they are repeated here).
SIM_EXPORT void** __cudaRegisterFatBinary(void* fat_cubin);
SIM_EXPORT void __cudaRegisterFatBinaryEnd(void** fat_cubin_handle);
SIM_EXPORT void __cudaUnregisterFatBinary(void** fat_cubin_handle);
SIM_EXPORT void __cudaRegisterFunction(void** fat_cubin_handle, const char* host_fun,
                                       char* device_fun, const char* device_name, int thread_limit,
                                       uint3* tid, uint3* bid, dim3* b_dim, dim3* g_dim,
                                       int* w_size);
SIM_EXPORT void __cudaRegisterVar(void** fat_cubin_handle, char* host_var, char* device_address,
                                  const char* device_name, int ext, size_t size, int constant,
                                  int global);
SIM_EXPORT char __cudaInitModule(void** fat_cubin_handle);
SIM_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid_dim, dim3 block_dim, size_t shared_mem,
                                                struct CUstream_st* stream);
SIM_EXPORT cudaError_t __cudaPopCallConfiguration(dim3* grid_dim, dim3* block_dim,
                                                  size_t* shared_mem, void* stream);

namespace {

struct CallConfiguration {
  dim3 grid;
  dim3 block;
  size_t shared_mem;
  cudaStream_t stream;
};

// Push happens in the caller's <<<>>> expression, pop in the kernel's host stub, both on
// the calling thread; a stack handles launches nested in argument evaluation.
thread_local std::vector<CallConfiguration> call_configurations;

}  // namespace

SIM_EXPORT void** __cudaRegisterFatBinary(void* fat_cubin) {
  // The handle only needs to be unique; it remembers the fatbin for debugging.
  return new void*(fat_cubin);
}

SIM_EXPORT void __cudaRegisterFatBinaryEnd(void** /*fat_cubin_handle*/) {}

SIM_EXPORT void __cudaUnregisterFatBinary(void** fat_cubin_handle) {
  sim::UnregisterModule(fat_cubin_handle);
  delete fat_cubin_handle;
}

SIM_EXPORT void __cudaRegisterFunction(void** fat_cubin_handle, const char* host_fun,
                                       char* device_fun, const char* device_name,
                                       int /*thread_limit*/, uint3* /*tid*/, uint3* /*bid*/,
                                       dim3* /*b_dim*/, dim3* /*g_dim*/, int* /*w_size*/) {
  const char* name = device_name != nullptr ? device_name : device_fun;
  sim::RegisterKernel(host_fun, name, fat_cubin_handle);
}

SIM_EXPORT void __cudaRegisterVar(void** /*fat_cubin_handle*/, char* /*host_var*/,
                                  char* /*device_address*/, const char* /*device_name*/,
                                  int /*ext*/, size_t /*size*/, int /*constant*/, int /*global*/) {}

SIM_EXPORT char __cudaInitModule(void** /*fat_cubin_handle*/) { return 1; }

SIM_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid_dim, dim3 block_dim, size_t shared_mem,
                                                struct CUstream_st* stream) {
  call_configurations.push_back(CallConfiguration{grid_dim, block_dim, shared_mem, stream});
  return 0;
}

SIM_EXPORT cudaError_t __cudaPopCallConfiguration(dim3* grid_dim, dim3* block_dim,
                                                  size_t* shared_mem, void* stream) {
  if (call_configurations.empty()) return cudaErrorMissingConfiguration;
  CallConfiguration top = call_configurations.back();
  call_configurations.pop_back();
  if (grid_dim != nullptr) *grid_dim = top.grid;
  if (block_dim != nullptr) *block_dim = top.block;
  if (shared_mem != nullptr) *shared_mem = top.shared_mem;
  if (stream != nullptr) *static_cast<cudaStream_t*>(stream) = top.stream;
  return cudaSuccess;
}
