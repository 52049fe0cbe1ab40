#include "testdata/workloads/common/device_actions.h"

#include <sim/sim_ext.h>
#include <sim/sim_nccl_ext.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace workloads {

Kernel RegisterKernel(const std::string& name) {
  Kernel kernel{name, simRegisterKernel(name.c_str())};
  if (kernel.host_function == nullptr) {
    std::fprintf(stderr, "simRegisterKernel(%s) failed\n", name.c_str());
    std::exit(3);
  }
  return kernel;
}

void CheckCuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(status));
  std::exit(4);
}

void CheckNccl(ncclResult_t status, const char* what, ncclComm_t comm) {
  if (status == ncclSuccess) return;
  std::fprintf(stderr, "%s failed: %s (%s)\n", what, ncclGetErrorString(status),
               ncclGetLastError(comm));
  std::exit(5);
}

const char* CopyKindName(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: return "HtoD";
    case cudaMemcpyDeviceToHost: return "DtoH";
    case cudaMemcpyDeviceToDevice: return "DtoD";
    case cudaMemcpyHostToHost: return "HtoH";
    default: return "Default";
  }
}

void DeviceActions::LaunchUnrecorded(const Kernel& kernel, dim3 grid, dim3 block,
                                     cudaStream_t stream) {
  // The simulator never runs kernel bodies, but real kernels take arguments: pass some.
  void* pointer_argument = nullptr;
  int size_argument = 0;
  void* arguments[] = {&pointer_argument, &size_argument};
  CheckCuda(cudaLaunchKernel(kernel.host_function, grid, block, arguments, 0, stream),
            kernel.name.c_str());
}

void DeviceActions::Launch(const Kernel& kernel, dim3 grid, dim3 block, cudaStream_t stream) {
  LaunchUnrecorded(kernel, grid, block, stream);
  truth_->RecordKernel(kernel.name, simKernelDurationNs(kernel.name.c_str(), grid, block),
                       "cudart");
}

void DeviceActions::LaunchSlowed(const Kernel& kernel, dim3 grid, dim3 block, cudaStream_t stream,
                                 double factor) {
  const uint64_t duration = static_cast<uint64_t>(
      std::llround(simKernelDurationNs(kernel.name.c_str(), grid, block) * factor));
  CheckCuda(simLaunchNamedKernel(kernel.name.c_str(), grid, block, 0, stream, duration, 0),
            kernel.name.c_str());
  truth_->RecordKernel(kernel.name, duration, "cudart");
}

void DeviceActions::CopyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  CheckCuda(cudaMemcpyAsync(dst, src, bytes, kind, stream), "cudaMemcpyAsync");
  truth_->RecordCopy(CopyKindName(kind), bytes, simCopyDurationNs(bytes, kind));
}

void DeviceActions::CopySync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  CheckCuda(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy");
  truth_->RecordCopy(CopyKindName(kind), bytes, simCopyDurationNs(bytes, kind));
}

void DeviceActions::MemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream) {
  CheckCuda(cudaMemsetAsync(dst, value, bytes, stream), "cudaMemsetAsync");
  truth_->RecordMemset(bytes, simMemsetDurationNs(bytes));
}

void DeviceActions::AllReduce(const float* send, float* recv, size_t count, ncclComm_t comm,
                              cudaStream_t stream) {
  CheckNccl(ncclAllReduce(send, recv, count, ncclFloat32, ncclSum, comm, stream), "ncclAllReduce",
            comm);
  RecordNcclCall("AllReduce", count, count * sizeof(float), comm);
}

void DeviceActions::GroupCollective(const std::string& op, const float* send, float* recv,
                                    size_t count, ncclComm_t comm, cudaStream_t stream) {
  int ranks = 1;
  CheckNccl(ncclCommCount(comm, &ranks), "ncclCommCount", comm);
  const ncclDataType_t type = ncclFloat32;
  ncclResult_t result = ncclInvalidUsage;
  uint64_t bytes = count * sizeof(float) * ranks;  // per-rank pieces: S = count * e * n
  if (op == "AllGather") result = ncclAllGather(send, recv, count, type, comm, stream);
  if (op == "ReduceScatter")
    result = ncclReduceScatter(send, recv, count, type, ncclSum, comm, stream);
  if (op == "AlltoAll") result = ncclAlltoAll(send, recv, count, type, comm, stream);
  if (op == "Gather") result = ncclGather(send, recv, count, type, 0, comm, stream);
  if (op == "Scatter") result = ncclScatter(send, recv, count, type, 0, comm, stream);
  if (op == "Broadcast") {
    result = ncclBcast(recv, count, type, 0, comm, stream);
    bytes = count * sizeof(float);
  }
  CheckNccl(result, op.c_str(), comm);
  RecordNcclCall(op, count, bytes, comm);
}

void DeviceActions::RecordNcclCall(const std::string& op, size_t count, uint64_t bytes,
                                   ncclComm_t comm) {
  int ranks = 1;
  ncclCommCount(comm, &ranks);
  simNcclLaunchInfo launch;
  uint64_t kernel_ns = 0;
  if (simNcclLastLaunches(&launch, 1) == 1) {
    truth_->RecordKernel(launch.kernel_name, launch.duration_ns, "nccl");
    kernel_ns = launch.duration_ns;
  }
  truth_->RecordCollective(op, count, bytes, kernel_ns, ranks);
}

}  // namespace workloads
