#include "analyzer/testing/scenarios.h"

#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::testing {

// Expected (ns): T = 1000. Kernels on GPU0 inside the step: gemm [200,300] s7, add
// [250,350] s8, gemm [600,650] s7, orphan [900,950] s9 -> union 250 (25.00 %); "late"
// [1200,1300] is outside the step. Launched from calls inside the step: 100+100+50 = 250
// (G). Forward (thread 1) launches gemm and add: 200 (80 %). Others CPU 1000 - 800 = 200.
// matmul: calls 2, CPU 150+100 = 250, GPU 200+50 = 250; linear: CPU 230, GPU 200.
std::string WriteTrainingStepTrace(const std::string& name) {
  TestTrace trace;
  const auto phase = schema::RANGE_KIND_MODEL_PHASE;
  const auto op = schema::RANGE_KIND_OPERATOR;
  trace.Step(1, 0, 1000, 1, 32);
  trace.Range(1, phase, "Dataloader", 0, 100);
  trace.Range(1, phase, "Forward", 100, 400);
  trace.Range(1, phase, "Backward", 400, 700);
  trace.Range(1, phase, "Optimization", 700, 800);
  trace.Range(1, op, "linear", 120, 350);
  trace.Range(1, op, "matmul", 150, 300);
  trace.Range(1, schema::RANGE_KIND_USER, "matmul::compute", 160, 290);
  trace.Launch(1, 170, 180, "gemm", 0, 7, 200, 300);
  trace.Launch(1, 292, 296, "add", 0, 8, 250, 350);
  trace.Range(2, op, "matmul", 500, 600);
  trace.Launch(2, 510, 520, "gemm", 0, 7, 600, 650);
  trace.Launch(1, 1100, 1110, "late", 0, 7, 1200, 1300);
  trace.Kernel("orphan", 0, 9, 900, 950, 999999);
  trace.Mark(1, "checkpoint", 950);
  return trace.Write(name);
}

}  // namespace prof::analyzer::testing

namespace prof::analyzer::testing {
namespace {

void AddRankStep(TestTrace* trace, int step, uint64_t step_ns) {
  const uint64_t start = 1000000 + step * step_ns;
  const uint64_t phase = step_ns / 10;
  trace->Step(1, start, start + step_ns, step, 32);
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Dataloader", start, start + phase);
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Forward", start + phase, start + 5 * phase);
  trace->Range(1, schema::RANGE_KIND_OPERATOR, "aten::linear", start + phase, start + 3 * phase);
  trace->Launch(1, start + phase + 10, start + phase + 5000, "_Z11gemm_kernelILi128EEvPKfS1_Pfiii",
                0, 7, start + phase + 20000, start + 3 * phase);
  trace->Range(1, schema::RANGE_KIND_USER, "GpuMemcpyAsync:CPU->GPU", start + 3 * phase,
               start + 3 * phase + 8000);
  const uint64_t copy =
      trace->ApiCall(1, "cudaMemcpyAsync", start + 3 * phase + 100, start + 3 * phase + 7000);
  trace->Memcpy(0, 7, start + 3 * phase + 9000, start + 3 * phase + 19000, 1 << 20,
                schema::COPY_KIND_HOST_TO_DEVICE, copy);
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Backward", start + 5 * phase, start + 8 * phase);
  trace->Nccl(1, schema::NCCL_OPERATION_ALL_REDUCE, start + 6 * phase, start + 6 * phase + 20000,
              8 << 20, 2);
  const uint64_t launch =
      trace->ApiCall(1, "cudaLaunchKernel", start + 6 * phase + 1000, start + 6 * phase + 9000);
  trace->Kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 0, 9,
                start + 6 * phase + 30000, start + 6 * phase + 1030000, launch);
  trace->Range(1, schema::RANGE_KIND_MODEL_PHASE, "Optimization", start + 8 * phase,
               start + 9 * phase);
  trace->Allocate(1, start + 100, 0x7f0000000000 + step * 0x100000, 1 << 20, 0);
  if (step < 11) trace->Free(1, start + 9 * phase, 0x7f0000000000 + step * 0x100000, 0);
}

}  // namespace

std::string WriteRankTrace(const std::string& name, int32_t rank, uint64_t step_ns) {
  TestTrace trace(rank, 1000 + rank);
  trace::ClockAnchor* late = trace.header().add_clock_anchors();
  late->set_host_monotonic_ns(1000000 + 12 * step_ns);
  late->set_cupti_ns(1000000 + 12 * step_ns + kDefaultCuptiOffset + 1000);
  for (int step = 0; step < 12; ++step) {
    AddRankStep(&trace, step, step_ns);
    if (step == 5) trace.NextChunk();
  }
  return trace.Write(name);
}

}  // namespace prof::analyzer::testing
