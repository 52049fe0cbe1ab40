#include "proto/testing/realistic_mix.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace prof::testing {
namespace {

constexpr uint64_t kThreadId = 31337;
constexpr uint64_t kCuptiOffset = 3000000000000ull;  // CUPTI clock != host clock
constexpr uint32_t kStreams[2] = {7, 13};

const char* const kKernelNames[] = {
    "_Z13gemm_kernelILi128EEvPKfS1_Pfiii",
    "volta_sgemm_128x64_nn",
    "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_tn",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float>>",
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>",
    "void at::native::(anonymous namespace)::softmax_warp_forward<float, float, 10>",
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>",
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEEEEviT0_T1_",
    "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false>",
    "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
};

const char* const kRangeNames[] = {
    "matmul",      "relu",         "softmax_with_cross_entropy",
    "matmul_grad", "relu_grad",    "sgd",
    "conv2d",      "batch_norm",   "layer_norm",
    "dropout",     "embedding",    "Forward",
    "Backward",    "Optimization", "Dataloader",
    "aten::addmm", "aten::linear",
};

}  // namespace

RealisticMix::RealisticMix(ChunkEncoder* encoder, uint64_t seed)
    : encoder_(encoder), random_(seed) {
  for (const char* name : kKernelNames) {
    for (uint32_t grid : {80u, 132u, 1024u}) {
      KernelConfigValue config;
      config.name = encoder_->InternString(name);
      config.grid[0] = grid;
      config.grid[1] = 1;
      config.grid[2] = 1;
      config.block[0] = 256;
      config.block[1] = 1;
      config.block[2] = 1;
      config.registers_per_thread = 96;
      config.dynamic_shared_memory = 49152;
      kernels_.push_back(encoder_->InternKernelConfig(config));
    }
  }
  for (const char* name : kRangeNames) range_names_.push_back(encoder_->InternString(name));
  launch_name_ = encoder_->InternString("cudaLaunchKernel");
  copy_name_ = encoder_->InternString("cudaMemcpyAsync");
  memset_name_ = encoder_->InternString("cudaMemsetAsync");
}

uint64_t RealisticMix::LogUniform(double low, double high) {
  std::uniform_real_distribution<double> exponent(std::log(low), std::log(high));
  return static_cast<uint64_t>(std::exp(exponent(random_)));
}

void RealisticMix::MakeGroup(std::vector<MixedEvent>* out) {
  out_ = out;
  for (int i = 0; i < 7; ++i) AddLaunchAndKernel(i % 3 == 2 ? 1 : 0);
  AddCopy();
  AddMemset();
  AddRange();
  AddRange();
}

void RealisticMix::AddGroup() {
  group_.clear();
  MakeGroup(&group_);
  ReplayShifted(group_, 0, 0, encoder_);
}

namespace {

// Applies the shift to one event and adds it; one overload per kind in the mix.
class ShiftedAdder {
 public:
  ShiftedAdder(uint64_t time_shift, uint64_t correlation_shift, ChunkEncoder* encoder)
      : time_(time_shift), correlation_(correlation_shift), encoder_(encoder) {}

  void operator()(ApiCallEvent e) const {
    e.start_ns += time_;
    e.correlation_id += correlation_;
    encoder_->AddApiCall(e);
  }
  void operator()(KernelEvent e) const {
    e.start_ns += time_;
    e.correlation_id += correlation_;
    encoder_->AddKernel(e);
  }
  void operator()(MemcpyEvent e) const {
    e.start_ns += time_;
    e.correlation_id += correlation_;
    encoder_->AddMemcpy(e);
  }
  void operator()(MemsetEvent e) const {
    e.start_ns += time_;
    e.correlation_id += correlation_;
    encoder_->AddMemset(e);
  }
  void operator()(HostRangeEvent e) const {
    e.start_ns += time_;
    encoder_->AddHostRange(e);
  }

 private:
  uint64_t time_;
  uint64_t correlation_;
  ChunkEncoder* encoder_;
};

}  // namespace

void ReplayShifted(absl::Span<const MixedEvent> events, uint64_t time_shift,
                   uint64_t correlation_shift, ChunkEncoder* encoder) {
  const ShiftedAdder adder(time_shift, correlation_shift, encoder);
  for (const MixedEvent& event : events) std::visit(adder, event);
}

void RealisticMix::AddLaunchAndKernel(int stream_index) {
  ApiCallEvent launch;
  launch.thread_id = kThreadId;
  launch.start_ns = host_now_;
  launch.duration_ns = LogUniform(2000, 9000);
  launch.name = launch_name_;
  launch.correlation_id = ++correlation_;
  out_->push_back(launch);
  host_now_ += launch.duration_ns + LogUniform(200, 3000);

  KernelEvent kernel;
  kernel.where = StreamKey{0, 1, kStreams[stream_index], schema::CLOCK_DOMAIN_CUPTI};
  uint64_t& ready = device_ready_[stream_index];
  kernel.start_ns = std::max(ready, launch.start_ns + kCuptiOffset + 4000);
  kernel.duration_ns = LogUniform(2000, 500000);
  ready = kernel.start_ns + kernel.duration_ns;
  kernel.config = kernels_[std::uniform_int_distribution<size_t>(0, kernels_.size() - 1)(random_)];
  kernel.correlation_id = launch.correlation_id;
  out_->push_back(kernel);
}

void RealisticMix::AddCopy() {
  static constexpr uint64_t kSizes[] = {4096, 65536, 1 << 20, 16 << 20};
  const uint64_t bytes = kSizes[std::uniform_int_distribution<int>(0, 3)(random_)];
  const bool to_device = std::uniform_int_distribution<int>(0, 1)(random_) == 1;
  ApiCallEvent call;
  call.thread_id = kThreadId;
  call.start_ns = host_now_;
  call.duration_ns = LogUniform(3000, 15000);
  call.name = copy_name_;
  call.correlation_id = ++correlation_;
  call.stream = kStreams[0];
  call.bytes = bytes;
  call.copy_kind = to_device ? schema::COPY_KIND_HOST_TO_DEVICE : schema::COPY_KIND_DEVICE_TO_HOST;
  out_->push_back(call);
  host_now_ += call.duration_ns + LogUniform(200, 3000);

  MemcpyEvent copy;
  copy.where = StreamKey{0, 1, kStreams[0], schema::CLOCK_DOMAIN_CUPTI};
  copy.start_ns = std::max(device_ready_[0], call.start_ns + kCuptiOffset + 4000);
  copy.duration_ns = 1000 + bytes / 25;  // ~25 GB/s
  device_ready_[0] = copy.start_ns + copy.duration_ns;
  copy.bytes = bytes;
  copy.copy_kind = call.copy_kind;
  copy.source_kind = to_device ? schema::MEMORY_KIND_PINNED : schema::MEMORY_KIND_DEVICE;
  copy.destination_kind = to_device ? schema::MEMORY_KIND_DEVICE : schema::MEMORY_KIND_PINNED;
  copy.correlation_id = call.correlation_id;
  out_->push_back(copy);
}

void RealisticMix::AddMemset() {
  ApiCallEvent call;
  call.thread_id = kThreadId;
  call.start_ns = host_now_;
  call.duration_ns = LogUniform(2000, 6000);
  call.name = memset_name_;
  call.correlation_id = ++correlation_;
  call.stream = kStreams[1];
  call.bytes = 1 << 20;
  out_->push_back(call);
  host_now_ += call.duration_ns + LogUniform(200, 3000);

  MemsetEvent memset;
  memset.where = StreamKey{0, 1, kStreams[1], schema::CLOCK_DOMAIN_CUPTI};
  memset.start_ns = std::max(device_ready_[1], call.start_ns + kCuptiOffset + 4000);
  memset.duration_ns = 1500 + call.bytes / 500;
  device_ready_[1] = memset.start_ns + memset.duration_ns;
  memset.bytes = call.bytes;
  memset.correlation_id = call.correlation_id;
  out_->push_back(memset);
}

void RealisticMix::AddRange() {
  HostRangeEvent range;
  range.thread_id = kThreadId;
  range.start_ns = host_now_ - LogUniform(10000, 200000);
  range.duration_ns = LogUniform(5000, 300000);
  range.name =
      range_names_[std::uniform_int_distribution<size_t>(0, range_names_.size() - 1)(random_)];
  range.kind = schema::RANGE_KIND_NVTX_PUSH_POP;
  out_->push_back(range);
}

}  // namespace prof::testing
