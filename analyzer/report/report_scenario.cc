#include "analyzer/report/report_scenario.h"

#include <cstdlib>

#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::report::testing {
namespace {

using analyzer::testing::TestTrace;

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kWeights = 0x7f0000000000;
constexpr uint64_t kActivations = 0x7f1000000000;

// The address of the step's `slot`-th activation block (64-bit arithmetic throughout).
uint64_t Activation(int step, int slot) {
  return kActivations + (uint64_t{8} * step + slot) * 0x10000000;
}
constexpr const char* kGemm =
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"
    "(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)";
constexpr const char* kAllReduce =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

void Forward(TestTrace* trace, uint64_t start, uint64_t length, int step) {
  const auto op = schema::RANGE_KIND_OPERATOR;
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Forward", start, start + length);
  const uint64_t block[] = {96, 64, 32, 16};
  for (int layer = 0; layer < 4; ++layer) {
    const uint64_t at = start + layer * length / 4;
    trace->Range(1, op, "aten::linear", at, at + length / 5);
    trace->Range(1, op, "aten::matmul", at + 1000, at + length / 6);
    trace->Launch(1, at + 2000, at + 9000, kGemm, 0, 7, at + 20000, at + length / 5);
    trace->Launch(1, at + length / 6, at + length / 6 + 5000,
                  "void at::native::vectorized_elementwise_kernel<4, "
                  "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&)::{lambda(float)#1}>",
                  0, 7, at + length / 5, at + length / 5 + length / 40);
    trace->Allocate(1, at + 500, Activation(step, layer), block[layer] * kMiB, 0);
  }
}

void Backward(TestTrace* trace, uint64_t start, uint64_t length, int step) {
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Backward", start, start + length);
  trace->Allocate(1, start + 100, Activation(step, 5), 128 * kMiB, 0);
  for (int layer = 3; layer >= 0; --layer) {
    const uint64_t at = start + (3 - layer) * length / 4;
    trace->Range(1, schema::RANGE_KIND_OPERATOR, "aten::linear_backward", at,
                 at + length / 4 - 1000);
    trace->Launch(1, at + 2000, at + 9000, kGemm, 0, 7, at + 20000, at + length / 4 - 20000);
    trace->Free(1, at + length / 4 - 500, Activation(step, layer), 0);
  }
  // The gradients' all-reduce overlaps the second half of the backward pass.
  trace->Nccl(1, schema::NCCL_OPERATION_ALL_REDUCE, start + length / 2, start + length / 2 + 30000,
              512 * kMiB, 4);
  const uint64_t launch =
      trace->ApiCall(1, "cudaLaunchKernel", start + length / 2 + 1000, start + length / 2 + 9000);
  trace->Kernel(kAllReduce, 0, 9, start + length / 2 + 30000, start + length + length / 8, launch);
}

// What the Python helper's allocator sampling and the agent's RSS reading record at the
// step's end (hand-worked, see report_scenario.h): all activations are freed by then.
void SampleMemory(TestTrace* trace, int rank, int step, uint64_t end) {
  const uint64_t leaked = rank == 2 ? 8 * kMiB : 0;
  const uint64_t allocated = 448 * kMiB + leaked * (step + 1);
  const uint64_t peak = 784 * kMiB + leaked * step;
  const uint64_t reserved = step < kScenarioSteps / 2 ? 1024 * kMiB : 1280 * kMiB;
  trace->encoder().AddMemorySample({end - 1000, 0, allocated, reserved, peak, 0});
  // The agent stamps the host's reading with the step boundary (the step's end).
  trace->encoder().AddMemorySample({end, -1, 0, 0, 0, 3072 * kMiB + 2 * kMiB * step});
}

void Step(TestTrace* trace, int rank, int step, uint64_t start, uint64_t step_ns) {
  trace->Step(1, start, start + step_ns, step, 64);
  const uint64_t tenth = step_ns / 10;
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Dataloader", start, start + tenth);
  const uint64_t copy =
      trace->ApiCall(1, "cudaMemcpyAsync", start + tenth / 2, start + tenth / 2 + 8000);
  trace->Memcpy(0, 7, start + tenth / 2 + 10000, start + tenth / 2 + 400000, 64 * kMiB,
                schema::COPY_KIND_HOST_TO_DEVICE, copy);
  Forward(trace, start + tenth, 3 * tenth, step);
  Backward(trace, start + 4 * tenth, 4 * tenth, step);
  const uint64_t optimize = start + 8 * tenth + tenth / 2;
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Optimization", optimize, optimize + tenth);
  trace->Range(1, schema::RANGE_KIND_OPERATOR, "Optimizer.step#AdamW.step", optimize,
               optimize + tenth - 1000);
  trace->Launch(1, optimize + 2000, optimize + 6000,
                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel"
                "<at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous "
                "namespace)::"
                "FusedAdamMathFunctor<float, 4>>",
                0, 7, optimize + 300000, optimize + tenth - 100000);
  trace->Free(1, optimize + tenth - 500, Activation(step, 5), 0);
  if (rank == 2) trace->Allocate(1, optimize + tenth - 200, Activation(step, 6), 8 * kMiB, 0);
  SampleMemory(trace, rank, step, start + step_ns);
}

}  // namespace

std::vector<std::string> WriteReportScenario(const std::string& folder, int ranks) {
  // TestTrace::Write puts files under TEST_TMPDIR.
  setenv("TEST_TMPDIR", folder.c_str(), 1);
  std::vector<std::string> paths;
  for (int rank = 0; rank < ranks; ++rank) {
    TestTrace trace(rank, 2000 + rank);
    trace.header().set_world_size(ranks);
    const uint64_t base_ns = rank == 2 ? 46000000 : 40000000;
    trace.Allocate(1, 500000, kWeights, 256 * kMiB, 0);
    trace.Allocate(1, 600000, kWeights + 0x10000000, 128 * kMiB, 0);
    trace.Allocate(1, 700000, kWeights + 0x20000000, 64 * kMiB, 0);
    uint64_t start = 1000000;
    for (int step = 0; step < kScenarioSteps; ++step) {
      // Deterministic jitter of up to 2 ms; the first step is a slow warm-up.
      const uint64_t step_ns =
          base_ns + (step * 7 + rank * 3) % 5 * 500000 + (step == 0 ? 12000000 : 0);
      Step(&trace, rank, step, start, step_ns);
      start += step_ns;
      if (step == kScenarioSteps / 2) trace.NextChunk();
    }
    if (rank == ranks - 1) trace.Loss(schema::LOSS_KIND_CUPTI_DROPPED, 12);
    paths.push_back(trace.Write("rank" + std::to_string(rank) + ".pb"));
  }
  return paths;
}

}  // namespace prof::analyzer::report::testing
