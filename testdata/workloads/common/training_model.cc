#include "testdata/workloads/common/training_model.h"

#include <time.h>

#include "testdata/workloads/common/nvtx_scope.h"

namespace workloads {
namespace {

// Kernel names as CUPTI reports them: cuBLAS-style plain names and mangled templates
// (a profiler must demangle the latter).
enum KernelId {
  kSgemmForward1,
  kAddBias,
  kRelu,
  kSgemmForward2,
  kSoftmax,
  kCrossEntropy,
  kMean,
  kFillGrad,
  kSoftmaxCeBackward,
  kSgemmGradW2,
  kSgemmGradX2,
  kReduceRows,
  kReluGrad,
  kSgemmGradW1,
  kSgemmGradX1,
  kSgdUpdate,
  kKernelCount
};

const char* const kKernelNames[kKernelCount] = {
    "volta_sgemm_128x64_nn",
    "_Z22elementwise_add_kernelIfEvPKT_S2_PS0_i",
    "_Z11relu_kernelIfLi256EEvPKT_PS0_i",
    "volta_sgemm_32x32_sliced1x4_nn",
    "_Z22softmax_forward_kernelIfLi10EEvPKT_PS0_i",
    "_Z20cross_entropy_kernelIfEvPKT_PKlPS0_i",
    "_Z18reduce_mean_kernelIfLi128EEvPKT_PS0_i",
    "_Z16fill_grad_kernelIfEvPT_S0_i",
    "_Z26softmax_ce_backward_kernelIfEvPKT_PKlPS0_i",
    "volta_sgemm_32x32_sliced1x4_tn",
    "volta_sgemm_64x32_sliced1x4_nt",
    "_Z22reduce_sum_rows_kernelIfLi256EEvPKT_PS0_ii",
    "_Z16relu_grad_kernelIfEvPKT_S2_PS0_i",
    "volta_sgemm_128x64_tn",
    "volta_sgemm_128x64_nt",
    "_Z17sgd_update_kernelIfEvPT_PKS0_fi",
};

template <typename T>
T* DeviceAlloc(size_t count, std::vector<void*>* allocations) {
  void* memory = nullptr;
  CheckCuda(cudaMalloc(&memory, count * sizeof(T)), "cudaMalloc");
  allocations->push_back(memory);
  return static_cast<T*>(memory);
}

// The data loader's wait: 1-3 ms, reproducible from the seed and the step.
void DataloaderWait(uint64_t seed, int64_t step) {
  uint64_t mix =
      (seed + 1) * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(step) * 0xbf58476d1ce4e5b9ull;
  mix ^= mix >> 31;
  const long wait_us = 1000 + static_cast<long>(mix % 2000);
  timespec pause{0, wait_us * 1000};
  nanosleep(&pause, nullptr);
}

}  // namespace

TrainingModel::TrainingModel(DeviceActions* device, const ModelShape& shape, uint64_t seed)
    : device_(device), shape_(shape), seed_(seed) {
  for (const char* name : kKernelNames) kernels_.push_back(RegisterKernel(name));
  CheckCuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  const size_t batch = shape.batch_size;
  const size_t layer1 = static_cast<size_t>(shape.in_features) * shape.hidden + shape.hidden;
  const size_t layer2 = static_cast<size_t>(shape.hidden) * shape.classes + shape.classes;
  CheckCuda(cudaMallocHost(reinterpret_cast<void**>(&host_batch_),
                           batch * shape.in_features * sizeof(float)),
            "cudaMallocHost");
  CheckCuda(cudaMallocHost(reinterpret_cast<void**>(&host_labels_), batch * sizeof(int64_t)),
            "cudaMallocHost");
  device_batch_ = DeviceAlloc<float>(batch * shape.in_features, &allocations_);
  device_labels_ = DeviceAlloc<int64_t>(batch, &allocations_);
  float* parameters = DeviceAlloc<float>(layer1 + layer2, &allocations_);
  layer1_grads_ = DeviceAlloc<float>(layer1, &allocations_);
  layer2_grads_ = DeviceAlloc<float>(layer2, &allocations_);
  device_loss_ = DeviceAlloc<float>(1, &allocations_);
  // Parameter initialisation happens before the first step (outside_steps in the truth).
  device_->MemsetAsync(parameters, 0, (layer1 + layer2) * sizeof(float), stream_);
  for (int i = 0; i < 2; ++i) {
    cudaEvent_t event;
    CheckCuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
    bucket_events_.push_back(event);
  }
}

TrainingModel::~TrainingModel() {
  cudaStreamSynchronize(stream_);
  for (cudaEvent_t event : bucket_events_) cudaEventDestroy(event);
  for (void* memory : allocations_) cudaFree(memory);
  cudaFreeHost(host_batch_);
  cudaFreeHost(host_labels_);
  cudaStreamDestroy(stream_);
}

dim3 TrainingModel::GridFor(int64_t elements) const {
  return dim3(static_cast<unsigned>((elements + 255) / 256), 1, 1);
}

void TrainingModel::Run(const Kernel& kernel, int64_t elements) {
  if (!faults_.slow_kernel.empty() && kernel.name.find(faults_.slow_kernel) != std::string::npos) {
    device_->LaunchSlowed(kernel, GridFor(elements), dim3(256, 1, 1), stream_, faults_.slow_factor);
    return;
  }
  device_->Launch(kernel, GridFor(elements), dim3(256, 1, 1), stream_);
}

void TrainingModel::LoadBatch(int64_t step) {
  TruthRecorder* truth = device_->truth();
  {
    NvtxScope range(truth, "Dataloader");
    DataloaderWait(seed_, step);
  }
  const size_t batch = shape_.batch_size;
  device_->CopyAsync(device_batch_, host_batch_, batch * shape_.in_features * sizeof(float),
                     cudaMemcpyHostToDevice, stream_);
  device_->CopyAsync(device_labels_, host_labels_, batch * sizeof(int64_t), cudaMemcpyHostToDevice,
                     stream_);
}

void TrainingModel::Forward() {
  TruthRecorder* truth = device_->truth();
  const int64_t batch = shape_.batch_size;
  NvtxScope forward(truth, "Forward");
  {
    NvtxScope op(truth, "matmul");
    Run(kernels_[kSgemmForward1], batch * shape_.hidden);
  }
  {
    NvtxScope op(truth, "elementwise_add");
    Run(kernels_[kAddBias], batch * shape_.hidden);
  }
  {
    NvtxScope op(truth, "relu");
    Run(kernels_[kRelu], batch * shape_.hidden);
  }
  {
    NvtxScope op(truth, "matmul");
    Run(kernels_[kSgemmForward2], batch * shape_.classes);
  }
  {
    NvtxScope op(truth, "softmax_with_cross_entropy");
    Run(kernels_[kSoftmax], batch * shape_.classes);
    Run(kernels_[kCrossEntropy], batch);
  }
  {
    NvtxScope op(truth, "mean");
    Run(kernels_[kMean], batch);
  }
  for (int i = 0; i < faults_.extra_syncs; ++i) {
    CheckCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }
}

void TrainingModel::PublishBucket(int index, float* gradients, size_t count) {
  if (!bucket_ready_hook_) return;
  cudaEvent_t ready = bucket_events_[index];
  CheckCuda(cudaEventRecord(ready, stream_), "cudaEventRecord");
  bucket_ready_hook_(GradientBucket{index, gradients, count, ready});
}

void TrainingModel::Backward() {
  TruthRecorder* truth = device_->truth();
  const int64_t batch = shape_.batch_size;
  NvtxScope backward(truth, "Backward");
  {
    NvtxScope op(truth, "mean_grad");
    Run(kernels_[kFillGrad], batch);
  }
  {
    NvtxScope op(truth, "softmax_with_cross_entropy_grad");
    Run(kernels_[kSoftmaxCeBackward], batch * shape_.classes);
  }
  {
    NvtxScope op(truth, "matmul_grad");
    Run(kernels_[kSgemmGradW2], shape_.hidden * shape_.classes);
    Run(kernels_[kSgemmGradX2], batch * shape_.hidden);
  }
  PublishBucket(1, layer2_grads_,
                static_cast<size_t>(shape_.hidden) * shape_.classes + shape_.classes);
  {
    NvtxScope op(truth, "relu_grad");
    Run(kernels_[kReluGrad], batch * shape_.hidden);
  }
  {
    NvtxScope op(truth, "elementwise_add_grad");
    Run(kernels_[kReduceRows], shape_.hidden);
  }
  {
    NvtxScope op(truth, "matmul_grad");
    Run(kernels_[kSgemmGradW1], static_cast<int64_t>(shape_.in_features) * shape_.hidden);
    Run(kernels_[kSgemmGradX1], batch * shape_.in_features);
  }
  PublishBucket(0, layer1_grads_,
                static_cast<size_t>(shape_.in_features) * shape_.hidden + shape_.hidden);
}

void TrainingModel::Optimize() {
  TruthRecorder* truth = device_->truth();
  NvtxScope optimization(truth, "Optimization");
  if (before_optimizer_hook_) before_optimizer_hook_();
  const int64_t sizes[] = {static_cast<int64_t>(shape_.in_features) * shape_.hidden, shape_.hidden,
                           static_cast<int64_t>(shape_.hidden) * shape_.classes, shape_.classes};
  for (int64_t size : sizes) {
    NvtxScope op(truth, "sgd");
    Run(kernels_[kSgdUpdate], size);
  }
  // clear_gradients: zero both gradient buffers for the next step.
  const size_t layer1 = static_cast<size_t>(shape_.in_features) * shape_.hidden + shape_.hidden;
  const size_t layer2 = static_cast<size_t>(shape_.hidden) * shape_.classes + shape_.classes;
  device_->MemsetAsync(layer1_grads_, 0, layer1 * sizeof(float), stream_);
  device_->MemsetAsync(layer2_grads_, 0, layer2 * sizeof(float), stream_);
}

float TrainingModel::FetchLoss() {
  float loss = 0.0f;
  CheckCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  device_->CopySync(&loss, device_loss_, sizeof(float), cudaMemcpyDeviceToHost);
  return loss;
}

}  // namespace workloads
