// Kernel launches (every spelling, including CUDA 13's __cudaLaunchKernel used by <<<>>>)
// and the registrations that name kernels.
#include "agent/hooks/cudart_hooks.h"
#include "agent/record/kernel_names.h"

#include <cstring>

namespace prof {
namespace {

// The hook's dim3 arguments are spilled to its stack frame on entry, as the ABI passes them:
// x and y in one 8-byte word, z in another. Each is read back here in those same two
// pieces, held in registers (the empty asm), so every load matches one store and the CPU
// forwards it from its store buffer. Built field by field, gcc read block.y and block.z
// with one 8-byte load spanning two stores a few instructions after them: a failed store
// forward, about 10 ns a launch in perf's samples of launch_stress.
struct LaunchDims {
  uint64_t grid_xy, block_xy;
  uint32_t grid_z, block_z;
};
LaunchDims DimsOf(const dim3& grid, const dim3& block) {
  static_assert(sizeof(dim3) == 12, "dim3: x and y, then z");
  LaunchDims dims;
  dims.grid_z = grid.z;
  dims.block_z = block.z;
  std::memcpy(&dims.grid_xy, &grid, sizeof(dims.grid_xy));
  std::memcpy(&dims.block_xy, &block, sizeof(dims.block_xy));
  __asm__("" : "+r"(dims.grid_xy), "+r"(dims.block_xy), "+r"(dims.grid_z), "+r"(dims.block_z));
  return dims;
}

// The launch recorded whole (it does not pack), from the same pieces.
LaunchGeometry Geometry(const LaunchDims& dims, size_t shared_memory) {
  LaunchGeometry geometry;
  std::memcpy(&geometry.grid[0], &dims.grid_xy, sizeof(dims.grid_xy));
  geometry.grid[2] = dims.grid_z;
  std::memcpy(&geometry.block[0], &dims.block_xy, sizeof(dims.block_xy));
  geometry.block[2] = dims.block_z;
  geometry.shared_memory = static_cast<uint32_t>(shared_memory);
  geometry.reserved = 0;
  return geometry;
}

// Packed from registers (record.h PackLaunch): the record is one line and no geometry goes
// through the stack; a launch that does not pack is recorded whole.
template <typename Call>
cudaError_t TimedLaunch(uint16_t api, const void* function, dim3 grid, dim3 block,
                        size_t shared_memory, cudaStream_t stream, Call&& call) {
  const LaunchDims dims = DimsOf(grid, block);
  const uint64_t stream_plus_one = StreamArgument(stream);
  PackedLaunch packed;
  if (PackLaunch(function, stream_plus_one, static_cast<uint32_t>(dims.grid_xy),
                 static_cast<uint32_t>(dims.grid_xy >> 32), dims.grid_z,
                 static_cast<uint32_t>(dims.block_xy), static_cast<uint32_t>(dims.block_xy >> 32),
                 dims.block_z, shared_memory, &packed)) {
    return TimedCall<cudaError_t>(api, stream_plus_one, function, call,
                                  [&](uint64_t start, uint64_t end, int32_t status) {
                                    RecordLaunch(api, start, end, status, function, packed);
                                  });
  }
  LaunchGeometry geometry = Geometry(dims, shared_memory);
  ApiArguments arguments;
  arguments.stream_plus_one = stream_plus_one;
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

PROF_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                              size_t shared_memory, cudaStream_t stream) {
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

PROF_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                                 void** args) {
  PROF_REAL_CUDART(cudaLaunchKernelExC_ptsz);
  if (HookIdle()) return real(config, func, args);
  return prof::TimedLaunchEx(prof::kApi_cudaLaunchKernelExC_ptsz, config, func,
                             [&] { return real(config, func, args); });
}

PROF_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                           size_t shared_memory, cudaStream_t stream) {
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
  return prof::TimedLaunch(prof::kApi___cudaLaunchKernel_ptsz, kernel, grid, block, shared_memory,
                           stream,
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
