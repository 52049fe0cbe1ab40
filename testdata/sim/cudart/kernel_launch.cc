#include "testdata/sim/cudart/kernel_launch.h"

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/kernel_registry.h"
#include "testdata/sim/cudart/scheduler.h"
#include "testdata/sim/cudart/timing_model.h"

namespace sim {

bool ValidLaunchConfiguration(dim3 grid, dim3 block) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return false;
  if (block.x == 0 || block.y == 0 || block.z == 0) return false;
  if (grid.y > 65535 || grid.z > 65535 || grid.x > 2147483647u) return false;
  if (block.x > 1024 || block.y > 1024 || block.z > 64) return false;
  return static_cast<uint64_t>(block.x) * block.y * block.z <= 1024;
}

cudaError_t LaunchKernel(const KernelLaunch& launch, uint32_t cbid, const char* api_name,
                         const void* params) {
  const char* name = KernelName(launch.function);
  ApiCall call(cbid, api_name, params, name);
  if (name == nullptr) return call.Return(cudaErrorInvalidDeviceFunction);
  if (!ValidLaunchConfiguration(launch.grid, launch.block)) {
    return call.Return(cudaErrorInvalidConfiguration);
  }
  WorkItem item;
  item.kind = kSimWorkKernel;
  item.name = name;
  item.grid = launch.grid;
  item.block = launch.block;
  item.dynamic_shared_memory = launch.dynamic_shared_memory;
  item.duration_ns = KernelDurationNs(name, launch.grid, launch.block);
  return call.Return(
      EnqueueWork(launch.stream, launch.null_stream, item, call.correlation_id(), 0));
}

}  // namespace sim
