// CUDA work that records itself in the truth: each helper does the real (simulated)
// runtime call and records what it enqueued with the exact duration the simulator's
// model gives it. A failed call is fatal for a workload (it prints the call and exits
// non-zero), since its truth would otherwise be wrong.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <string>

#include "testdata/workloads/common/truth_recorder.h"

namespace workloads {

// A kernel registered with the simulator under a realistic (possibly mangled) name.
struct Kernel {
  std::string name;
  const void* host_function = nullptr;
};

// Registers `name` (simRegisterKernel); exits if the simulator refuses it.
Kernel RegisterKernel(const std::string& name);

// Exits with a message naming `what` when `status` is not cudaSuccess.
void CheckCuda(cudaError_t status, const char* what);
void CheckNccl(ncclResult_t status, const char* what, ncclComm_t comm);

class DeviceActions {
 public:
  explicit DeviceActions(TruthRecorder* truth) : truth_(truth) {}

  // cudaLaunchKernel; records name and simKernelDurationNs(name, grid, block).
  void Launch(const Kernel& kernel, dim3 grid, dim3 block, cudaStream_t stream);
  // Launch lasting `factor` times the model's duration (fault injection): enqueued with
  // simLaunchNamedKernel, so CUPTI sees a driver cuLaunchKernel instead of the runtime call.
  void LaunchSlowed(const Kernel& kernel, dim3 grid, dim3 block, cudaStream_t stream,
                    double factor);
  // Launch without recording, for graph capture (captured work is not executed).
  void LaunchUnrecorded(const Kernel& kernel, dim3 grid, dim3 block, cudaStream_t stream);

  void CopyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                 cudaStream_t stream);
  // cudaMemcpy (synchronous), like a framework fetching a loss value.
  void CopySync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
  void MemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream);

  // ncclAllReduce (sum, float); records the collective and the kernel NCCL enqueued.
  void AllReduce(const float* send, float* recv, size_t count, ncclComm_t comm,
                 cudaStream_t stream);

  // A collective of a sub-group communicator (float, root 0): "AllGather",
  // "ReduceScatter" (sum), "AlltoAll", "Gather", "Scatter" or "Broadcast" (as ncclBcast,
  // in place on `recv`). `count` is NCCL's count argument; buffers hold count elements
  // per rank of `comm`. Records nccl-tests' bytes and the kernel NCCL enqueued.
  void GroupCollective(const std::string& op, const float* send, float* recv, size_t count,
                       ncclComm_t comm, cudaStream_t stream);

  TruthRecorder* truth() const { return truth_; }

 private:
  // The collective just made (op, count, nccl-tests bytes) and the kernel it launched.
  void RecordNcclCall(const std::string& op, size_t count, uint64_t bytes, ncclComm_t comm);

  TruthRecorder* truth_;
};

const char* CopyKindName(cudaMemcpyKind kind);  // "HtoD", "DtoH", "DtoD", "HtoH"

}  // namespace workloads
