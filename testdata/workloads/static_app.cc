// The real-GPU check's plain CUDA program (shared/reference/gpu/cuda_app.cu) on the
// simulated platform, linked the way nvcc links by default: the runtime inside the program
// (//testdata/sim:cudart_static), so no LD_PRELOAD interposer sees any of its CUDA calls.
//   static_app STEPS : per step (an NVTX range "ProfileStep"): inside NVTX "forward" 1 H2D
//                      copy, 4 k_add, 1 k_scale; then 1 graph launch of 3 k_graph, 1 D2H
//                      copy and a stream sync. Before the loop: 2 cudaMalloc, a cudaMemset.
//                      Last line: what the loop did, counted as it did it, in the format of
//                      testdata/gpu/cuda_app.cu (scripts/gpu_check.sh --simulated reads it).
// Exit status 2 (with the failed call on stderr) if any CUDA call fails.
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sim/sim_ext.h"

#define CHECK_CUDA(call)                                                   \
  do {                                                                     \
    const cudaError_t status = (call);                                     \
    if (status != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status)); \
      return 2;                                                            \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  const void* k_add = simRegisterKernel("k_add(float*, float const*, int)");
  const void* k_scale = simRegisterKernel("k_scale(float*, float, int)");
  const void* k_graph = simRegisterKernel("k_graph(float*, int)");
  const size_t bytes = size_t{1} << 20;
  std::vector<char> host(bytes, 1);
  void* a = nullptr;
  void* b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMemset(a, 0, bytes));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  const dim3 grid(1024), block(256);
  cudaGraph_t graph;
  cudaGraphExec_t graph_exec;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int j = 0; j < 3; ++j) {
    CHECK_CUDA(cudaLaunchKernel(k_graph, grid, block, nullptr, 0, stream));
  }
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&graph_exec, graph, 0));
  long kernels = 0, graph_kernels = 0, copies = 0;
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA("ProfileStep");
    nvtxRangePushA("forward");
    CHECK_CUDA(cudaMemcpyAsync(b, host.data(), bytes, cudaMemcpyHostToDevice, stream));
    ++copies;
    for (int j = 0; j < 4; ++j) {
      CHECK_CUDA(cudaLaunchKernel(k_add, grid, block, nullptr, 0, stream));
      ++kernels;
    }
    CHECK_CUDA(cudaLaunchKernel(k_scale, grid, block, nullptr, 0, stream));
    ++kernels;
    nvtxRangePop();
    CHECK_CUDA(cudaGraphLaunch(graph_exec, stream));
    kernels += 3;
    graph_kernels += 3;
    CHECK_CUDA(cudaMemcpyAsync(host.data(), a, bytes, cudaMemcpyDeviceToHost, stream));
    ++copies;
    CHECK_CUDA(cudaStreamSynchronize(stream));
    nvtxRangePop();
  }
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  std::printf("steps %d\n", steps);
  if (steps > 0) {
    std::printf(
        "{\"steps\": %d, \"per_step\": {\"kernels\": %ld, \"graph_kernels\": %ld, "
        "\"memcpy\": %ld, \"memset\": 0}}\n",
        steps, kernels / steps, graph_kernels / steps, copies / steps);
  }
  return 0;
}
