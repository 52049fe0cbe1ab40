// Kernel launches (every spelling, including CUDA 13's __cudaLaunchKernel used by <<<>>>)
// and the registrations that name kernels.
#include "agent/hooks/cudart_hooks.h"
#include "agent/record/kernel_names.h"

namespace prof {
namespace {

LaunchGeometry Geometry(dim3 grid, dim3 block, size_t shared_memory) {
  return LaunchGeometry{{grid.x, grid.y, grid.z},
                        {block.x, block.y, block.z},
                        static_cast<uint32_t>(shared_memory),
                        0};
}

template <typename Call>
cudaError_t TimedLaunch(uint16_t api, const void* function, dim3 grid, dim3 block,
                        size_t shared_memory, cudaStream_t stream, Call&& call) {
  const LaunchGeometry geometry = Geometry(grid, block, shared_memory);
  ApiArguments arguments;
  arguments.stream_plus_one = StreamArgument(stream);
  arguments.function = function;
  arguments.launch = &geometry;
  return TimedApiCall<cudaError_t>(api, arguments, call);
}

template <typename Call>
cudaError_t TimedLaunchEx(uint16_t api, const cudaLaunchConfig_t* config, const void* function,
                          Call&& call) {
  if (!config) return call();
  return TimedLaunch(api, function, config->gridDim, config->blockDim, config->dynamicSmemBytes,
                     config->stream, call);
}

}  // namespace
}  // namespace prof

using prof::HookIdle;

PROF_EXPORT cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                         size_t shared_memory, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaLaunchKernel);
  if (HookIdle()) return real(func, grid, block, args, shared_memory, stream);
  return prof::TimedLaunch(prof::kApi_cudaLaunchKernel, func, grid, block, shared_memory, stream,
                           [&] { return real(func, grid, block, args, shared_memory, stream); });
}

PROF_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block,
                                              void** args, size_t shared_memory,
                                              cudaStream_t stream) {
  PROF_REAL_CUDART(cudaLaunchKernel_ptsz);
  if (HookIdle()) return real(func, grid, block, args, shared_memory, stream);
  return prof::TimedLaunch(prof::kApi_cudaLaunchKernel_ptsz, func, grid, block, shared_memory,
                           stream,
                           [&] { return real(func, grid, block, args, shared_memory, stream); });
}

PROF_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                            void** args) {
  PROF_REAL_CUDART(cudaLaunchKernelExC);
  if (HookIdle()) return real(config, func, args);
  return prof::TimedLaunchEx(prof::kApi_cudaLaunchKernelExC, config, func,
                             [&] { return real(config, func, args); });
}

PROF_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config,
                                                 const void* func, void** args) {
  PROF_REAL_CUDART(cudaLaunchKernelExC_ptsz);
  if (HookIdle()) return real(config, func, args);
  return prof::TimedLaunchEx(prof::kApi_cudaLaunchKernelExC_ptsz, config, func,
                             [&] { return real(config, func, args); });
}

PROF_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                                           void** args, size_t shared_memory,
                                           cudaStream_t stream) {
  PROF_REAL_CUDART(__cudaLaunchKernel);
  if (HookIdle()) return real(kernel, grid, block, args, shared_memory, stream);
  return prof::TimedLaunch(prof::kApi___cudaLaunchKernel, kernel, grid, block, shared_memory,
                           stream,
                           [&] { return real(kernel, grid, block, args, shared_memory, stream); });
}

PROF_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                void** args, size_t shared_memory,
                                                cudaStream_t stream) {
  PROF_REAL_CUDART(__cudaLaunchKernel_ptsz);
  if (HookIdle()) return real(kernel, grid, block, args, shared_memory, stream);
  return prof::TimedLaunch(prof::kApi___cudaLaunchKernel_ptsz, kernel, grid, block,
                           shared_memory, stream,
                           [&] { return real(kernel, grid, block, args, shared_memory, stream); });
}

// Registration is rare: always observed (whatever the state), so names are known when a
// window opens later.
PROF_EXPORT void __cudaRegisterFunction(void** fat_cubin_handle, const char* host_function,
                                        char* device_function, const char* device_name,
                                        int thread_limit, uint3* tid, uint3* bid, dim3* block,
                                        dim3* grid, int* warp_size) {
  PROF_RESOLVE_REAL(__cudaRegisterFunction);  // the registering module's own runtime
  {
    prof::ErrnoPreserved keep;
    prof::RegisterKernelName(host_function, device_name ? device_name : device_function);
  }
  if (real) {
    real(fat_cubin_handle, host_function, device_function, device_name, thread_limit, tid, bid,
         block, grid, warp_size);
  }
}

// CUDA 13's <<<>>> path turns a host stub into a cudaKernel_t first; the handle is then
// named like the stub.
PROF_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* function) {
  PROF_REAL_CUDART(__cudaGetKernel);
  const cudaError_t result = real(kernel, function);
  if (result == cudaSuccess && kernel && *kernel) {
    prof::ErrnoPreserved keep;
    prof::RegisterKernelAlias(*kernel, function);
  }
  return result;
}
