#include "analyzer/testing/sliced_window.h"

#include <algorithm>
#include <vector>

namespace prof::analyzer::testing {

// Twelve 1000 ns steps on thread 1, a chunk each. Step s: an operator range, two launches
// whose kernels are written in the next step's chunk (CUPTI delivers them late), a copy on
// another stream, an NCCL call; an allocation in step 1 freed in step 9, one in step 3
// never freed; the thread named.
void AddTwelveSteps(bool kernels_at_end, TestTrace* out, uint64_t device_lag) {
  TestTrace& trace = *out;
  trace.encoder().SetThreadName(1, "main");
  std::vector<std::vector<uint64_t>> late_kernels(13);  // by the step whose chunk holds them
  std::vector<std::vector<uint64_t>> late_copies(13);   // with device_lag: id, start
  for (uint64_t s = 0; s < 12; ++s) {
    const uint64_t t = 10000 + s * 1000;
    trace.Range(1, schema::RANGE_KIND_OPERATOR, s % 2 ? "aten::mm" : "aten::add", t + 50, t + 400);
    for (uint64_t k = 0; k < 2; ++k) {
      const uint64_t id =
          trace.ApiCall(1, "cudaLaunchKernel", t + 100 + 100 * k, t + 150 + 100 * k);
      const uint64_t chunk =
          kernels_at_end ? 12 : std::min<uint64_t>(12, s + std::max<uint64_t>(device_lag, 1));
      late_kernels[chunk].push_back(id);
      late_kernels[chunk].push_back(t + 200 + 300 * k);
    }
    const uint64_t copy = trace.ApiCall(1, "cudaMemcpyAsync", t + 500, t + 550);
    if (device_lag > 0) {
      late_copies[std::min<uint64_t>(12, s + device_lag)].push_back(copy);
      late_copies[std::min<uint64_t>(12, s + device_lag)].push_back(t + 560);
    } else {
      trace.Memcpy(0, 9, t + 560, t + 700, 4096, schema::COPY_KIND_HOST_TO_DEVICE, copy);
    }
    trace.Nccl(1, schema::NCCL_OPERATION_ALL_REDUCE, t + 720, t + 800, 1 << 20, 2, s + 1);
    if (s == 1) trace.Allocate(1, t + 10, 0xA000, 1 << 20, 0);
    if (s == 3) trace.Allocate(1, t + 10, 0xB000, 1 << 10, 0);
    if (s == 9) trace.Free(1, t + 20, 0xA000, 0);
    // A second anchor, read mid-file: the clocks drift 60 ns over the window, so every
    // slice must convert with both anchors to print what a whole read prints.
    if (s == 6) trace.encoder().AddClockAnchor({22000, 0, 22000 + kDefaultCuptiOffset + 60, 0, ""});
    for (size_t i = 0; i < late_kernels[s].size(); i += 2) {
      const uint64_t start = late_kernels[s][i + 1];
      trace.Kernel(start % 2 ? "gemm" : "relu", 0, 7, start, start + 250, late_kernels[s][i]);
    }
    for (size_t i = 0; i < late_copies[s].size(); i += 2) {
      const uint64_t start = late_copies[s][i + 1];
      trace.Memcpy(0, 9, start, start + 140, 4096, schema::COPY_KIND_HOST_TO_DEVICE,
                   late_copies[s][i]);
    }
    trace.Step(1, t, t + 1000, s, 32);
    trace.NextChunk();
  }
  for (size_t i = 0; i < late_kernels[12].size(); i += 2) {
    const uint64_t start = late_kernels[12][i + 1];
    trace.Kernel(start % 2 ? "gemm" : "relu", 0, 7, start, start + 250, late_kernels[12][i]);
  }
  for (size_t i = 0; i < late_copies[12].size(); i += 2) {
    const uint64_t start = late_copies[12][i + 1];
    trace.Memcpy(0, 9, start, start + 140, 4096, schema::COPY_KIND_HOST_TO_DEVICE,
                 late_copies[12][i]);
  }
}

}  // namespace prof::analyzer::testing
