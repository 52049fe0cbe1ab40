// A caller of the CUDA runtime and NCCL that registers its own kernels and launches them:
// the code of runtime_b_user.so (linked against runtime B) and of static_exporter.so (which
// contains its own runtime). The program runs it after dlopen(RTLD_LOCAL).
#include <cuda_runtime_api.h>
#include <nccl.h>

extern "C" void __cudaRegisterFunction(void** fat_cubin_handle, const char* host_function,
                                       char* device_function, const char* device_name,
                                       int thread_limit, uint3* tid, uint3* bid, dim3* block,
                                       dim3* grid, int* warp_size);

namespace {
void KernelStubOne() {}
void KernelStubTwo() {}
void KernelStubAtLoad() {}

// nvcc registers a module's kernels from a constructor, which runs inside the dlopen
// that loads the library (holding the loader's lock): one registration per copy.
__attribute__((constructor)) void RegisterAtLoad() {
  static void* fat_cubin = nullptr;
  __cudaRegisterFunction(&fat_cubin, reinterpret_cast<const char*>(&KernelStubAtLoad),
                         const_cast<char*>("registered_at_load"), "registered_at_load", -1, nullptr,
                         nullptr, nullptr, nullptr, nullptr);
}
}  // namespace

// Registers two kernels named `<prefix>_one`/`<prefix>_two`, then launches each
// `launches` times, allocates and frees once, all-reduces once and synchronizes once.
// Returns the number of calls that failed.
extern "C" __attribute__((visibility("default"))) int UseRuntime(const char* name_one,
                                                                 const char* name_two,
                                                                 int launches) {
  static void* fat_cubin = nullptr;
  __cudaRegisterFunction(&fat_cubin, reinterpret_cast<const char*>(&KernelStubOne),
                         const_cast<char*>(name_one), name_one, -1, nullptr, nullptr, nullptr,
                         nullptr, nullptr);
  __cudaRegisterFunction(&fat_cubin, reinterpret_cast<const char*>(&KernelStubTwo),
                         const_cast<char*>(name_two), name_two, -1, nullptr, nullptr, nullptr,
                         nullptr, nullptr);
  int failures = 0;
  for (int i = 0; i < launches; ++i) {
    failures += cudaLaunchKernel(reinterpret_cast<const void*>(&KernelStubOne), dim3(1), dim3(32),
                                 nullptr, 0, nullptr) != cudaSuccess;
    failures += cudaLaunchKernel(reinterpret_cast<const void*>(&KernelStubTwo), dim3(1), dim3(32),
                                 nullptr, 0, nullptr) != cudaSuccess;
  }
  void* memory = nullptr;
  failures += cudaMalloc(&memory, 256) != cudaSuccess;
  failures += cudaFree(memory) != cudaSuccess;
  failures +=
      ncclAllReduce(memory, memory, 1, ncclFloat32, ncclSum, nullptr, nullptr) != ncclSuccess;
  failures += cudaDeviceSynchronize() != cudaSuccess;
  return failures;
}
