#include "testdata/sim/nccl/kernel_launcher.h"

#include <cuda_runtime_api.h>
#include <sim/sim_ext.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "testdata/sim/nccl/env_config.h"
#include "testdata/sim/nccl/kernel_names.h"
#include "testdata/sim/nccl/last_error.h"
#include "testdata/sim/nccl/timing_model.h"

namespace simnccl {
namespace {

thread_local std::vector<simNcclLaunchInfo> thread_last_launches;

// The ops of one group that run in one kernel.
struct FusedLaunch {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  std::vector<const OpDescription*> ops;
  uint64_t not_before_ns = 0;
};

std::vector<FusedLaunch> FuseByCommAndStream(const std::vector<std::unique_ptr<PendingOp>>& ops) {
  std::vector<FusedLaunch> launches;
  for (const auto& op : ops) {
    auto same = [&](const FusedLaunch& launch) {
      return launch.comm == op->comm() && launch.stream == op->desc().stream;
    };
    auto found = std::find_if(launches.begin(), launches.end(), same);
    if (found == launches.end()) {
      launches.push_back(FusedLaunch{op->comm(), op->desc().stream, {}, 0});
      found = launches.end() - 1;
    }
    found->ops.push_back(&op->desc());
    found->not_before_ns = std::max(found->not_before_ns, op->not_before_ns());
  }
  return launches;
}

// NCCL runs one block per channel; a few channels, 512 threads each, is typical.
dim3 GridFor(int nranks) { return dim3(nranks > 1 ? 4 : 1, 1, 1); }

cudaError_t LaunchOne(const FusedLaunch& launch, simNcclLaunchInfo* info) {
  const std::string name = KernelNameFor(launch.ops, LegacyKernelNames());
  std::memset(info, 0, sizeof(*info));
  std::strncpy(info->kernel_name, name.c_str(), sizeof(info->kernel_name) - 1);
  info->duration_ns = KernelDurationNs(launch.ops, launch.comm->nranks);
  info->not_before_ns = launch.not_before_ns;
  info->op_count = static_cast<int>(launch.ops.size());
  int previous_device = -1;
  // Only communicators of ncclCommInitAll live on a device other than the caller's.
  if (launch.comm->owns_device_switch) {
    cudaGetDevice(&previous_device);
    cudaSetDevice(launch.comm->device);
  }
  const cudaError_t status =
      simLaunchNamedKernel(name.c_str(), GridFor(launch.comm->nranks), dim3(512, 1, 1), 0,
                           launch.stream, info->duration_ns, info->not_before_ns);
  if (status == cudaSuccess) {
    simLastEnqueuedItem(&info->start_ns, &info->end_ns, &info->correlation_id);
  }
  if (previous_device >= 0) cudaSetDevice(previous_device);
  return status;
}

}  // namespace

ncclResult_t LaunchFusedKernels(const std::vector<std::unique_ptr<PendingOp>>& ops) {
  thread_last_launches.clear();
  for (const FusedLaunch& launch : FuseByCommAndStream(ops)) {
    simNcclLaunchInfo info;
    const cudaError_t status = LaunchOne(launch, &info);
    if (status != cudaSuccess) {
      SetThreadLastError(std::string("simulated runtime refused the NCCL kernel launch: ") +
                         cudaGetErrorString(status));
      return ncclUnhandledCudaError;
    }
    thread_last_launches.push_back(info);
  }
  return ncclSuccess;
}

const std::vector<simNcclLaunchInfo>& ThreadLastLaunches() { return thread_last_launches; }

}  // namespace simnccl
