// Which host function pointer is which kernel. nvcc-generated code registers its kernels
// with __cudaRegisterFunction (host stub -> mangled device name); tests without nvcc
// register names with simRegisterKernel. Names are interned and never freed, so CUPTI
// records can point at them for the life of the process.
#ifndef PROF_TESTDATA_SIM_CUDART_KERNEL_REGISTRY_H_
#define PROF_TESTDATA_SIM_CUDART_KERNEL_REGISTRY_H_

namespace sim {

// A stable copy of `name` (same pointer for equal strings).
const char* InternName(const char* name);

void RegisterKernel(const void* host_function, const char* name, void** module);
void UnregisterModule(void** module);

// The kernel name for a host function pointer, or NULL if it was never registered.
const char* KernelName(const void* host_function);

// A unique host "function" pointer for `name` (the same one for the same name).
const void* RegisterNamedKernel(const char* name);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_KERNEL_REGISTRY_H_
