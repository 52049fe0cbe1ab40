// A plain CUDA program with known work per step, for checking libprof on a real GPU
// (scripts/gpu_check.sh builds it with nvcc's defaults: the runtime linked statically, so no
// LD_PRELOAD interposer sees its calls and CUPTI's callbacks must). Cleaned-up copy of the
// first real-GPU check's program; //testdata/workloads:static_app is its simulated twin.
//   cuda_app STEPS  per step (NVTX range "ProfileStep"): inside NVTX "forward" 1 H2D copy,
//                   1 memset, 4 k_add, 1 k_scale; then 1 graph launch of 3 k_graph, 1 D2H
//                   copy, a stream sync. Last line: what it did, counted as it did it
//                   ({"steps":..,"per_step":{"kernels":..,"graph_kernels":..,"memcpy":..,"memset":..}}),
//                   the truth gpu_check.sh compares the agent's trace with.
// Exit status 2 (the failed call on stderr) if any CUDA call fails.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

__global__ void k_add(float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}
__global__ void k_scale(float* a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
__global__ void k_graph(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}

#define CHECK_CUDA(call)                                                   \
  do {                                                                     \
    cudaError_t status = (call);                                           \
    if (status != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status)); \
      return 2;                                                            \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  if (steps <= 0) {
    std::fprintf(stderr, "cuda_app: STEPS must be a positive number, got %s\n", argv[1]);
    return 2;
  }
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *a, *b, *scratch, *host;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMalloc(&scratch, bytes));
  CHECK_CUDA(cudaMallocHost(&host, bytes));
  for (int i = 0; i < n; ++i) host[i] = 1.0f;
  CHECK_CUDA(cudaMemset(a, 0, bytes));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));

  // The graph's kernels run only when it is replayed: capture launches execute nothing.
  cudaGraph_t graph;
  cudaGraphExec_t graph_exec;
  const int graph_nodes = 3;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int j = 0; j < graph_nodes; ++j) k_graph<<<n / 256, 256, 0, stream>>>(a, n);
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&graph_exec, graph, 0));

  // Counted per call as the loop makes it, so the printed truth is what really ran.
  long kernels = 0, graph_kernels = 0, copies = 0, memsets = 0;
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA("ProfileStep");
    nvtxRangePushA("forward");
    CHECK_CUDA(cudaMemcpyAsync(b, host, bytes, cudaMemcpyHostToDevice, stream)); ++copies;
    CHECK_CUDA(cudaMemsetAsync(scratch, 0, bytes, stream)); ++memsets;
    for (int j = 0; j < 4; ++j) { k_add<<<n / 256, 256, 0, stream>>>(a, b, n); ++kernels; }
    k_scale<<<n / 256, 256, 0, stream>>>(a, 0.5f, n); ++kernels;
    CHECK_CUDA(cudaGetLastError());
    nvtxRangePop();
    CHECK_CUDA(cudaGraphLaunch(graph_exec, stream));
    kernels += graph_nodes; graph_kernels += graph_nodes;
    CHECK_CUDA(cudaMemcpyAsync(host, a, bytes, cudaMemcpyDeviceToHost, stream)); ++copies;
    CHECK_CUDA(cudaStreamSynchronize(stream));
    nvtxRangePop();
  }
  std::printf("checksum %.3f\n", host[0]);
  std::printf("{\"steps\": %d, \"per_step\": {\"kernels\": %ld, \"graph_kernels\": %ld, "
              "\"memcpy\": %ld, \"memset\": %ld}}\n",
              steps, kernels / steps, graph_kernels / steps, copies / steps, memsets / steps);
  CHECK_CUDA(cudaGraphExecDestroy(graph_exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaFree(a)); CHECK_CUDA(cudaFree(b)); CHECK_CUDA(cudaFree(scratch));
  CHECK_CUDA(cudaFreeHost(host));
  return 0;
}
