// A two-layer MLP training step shaped like paddle's guide: a Dataloader wait, the
// batch copied to the device, Forward / Backward / Optimization NVTX ranges holding
// operator-like NVTX ranges (matmul, relu, softmax_with_cross_entropy, matmul_grad, sgd,
// ...) that each launch 1-3 kernels with realistic names, and the loss fetched back
// synchronously. Shared by `train` and `train_ranks`; the latter hooks gradient buckets
// to all-reduce them while backward continues.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "testdata/workloads/common/device_actions.h"
#include "testdata/workloads/common/fault_injection.h"
#include "testdata/workloads/common/truth_recorder.h"

namespace workloads {

struct ModelShape {
  int batch_size = 32;
  int in_features = 784;
  int hidden = 512;
  int classes = 10;
};

// One gradient bucket (a layer's weight and bias gradients, contiguous), ready on the
// compute stream once the event recorded by the model completes.
struct GradientBucket {
  int index;
  float* gradients;
  size_t count;
  cudaEvent_t ready;
};

class TrainingModel {
 public:
  // Registers kernels, allocates and initialises parameters (recorded outside steps).
  TrainingModel(DeviceActions* device, const ModelShape& shape, uint64_t seed);
  ~TrainingModel();

  // Runs called inside Backward as soon as a bucket's gradients are produced.
  void set_bucket_ready_hook(std::function<void(const GradientBucket&)> hook) {
    bucket_ready_hook_ = std::move(hook);
  }
  // Runs at the start of Optimization, before the first optimizer kernel.
  void set_before_optimizer_hook(std::function<void()> hook) {
    before_optimizer_hook_ = std::move(hook);
  }

  // Opt-in regressions (fault_injection.h); none by default.
  void set_faults(const FaultInjection& faults) { faults_ = faults; }

  void LoadBatch(int64_t step);  // Dataloader range (host wait) + H2D copies
  void Forward();
  void Backward();
  void Optimize();
  float FetchLoss();  // synchronous D2H copy of the loss

  cudaStream_t compute_stream() const { return stream_; }

 private:
  dim3 GridFor(int64_t elements) const;
  void Run(const Kernel& kernel, int64_t elements);
  void PublishBucket(int index, float* gradients, size_t count);

  DeviceActions* device_;
  ModelShape shape_;
  uint64_t seed_;
  cudaStream_t stream_ = nullptr;
  std::vector<Kernel> kernels_;
  std::vector<void*> allocations_;
  std::vector<cudaEvent_t> bucket_events_;
  float* host_batch_ = nullptr;  // pinned
  float* device_batch_ = nullptr;
  int64_t* host_labels_ = nullptr;
  int64_t* device_labels_ = nullptr;
  float* layer1_grads_ = nullptr;  // w1 then b1
  float* layer2_grads_ = nullptr;  // w2 then b2
  float* device_loss_ = nullptr;
  std::function<void(const GradientBucket&)> bucket_ready_hook_;
  std::function<void()> before_optimizer_hook_;
  FaultInjection faults_;
};

}  // namespace workloads
