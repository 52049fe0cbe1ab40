// A training-step shape whose GEMMs run inside a library with its own static runtime
// (the cuBLAS stand-in, //testdata/sim:blas), as PyTorch's do in cuBLAS and cuDNN.
//   library_app STEPS : per step 2 kernels of the program's own through the shared runtime
//                       ("elementwise_kernel", "reduce_kernel"), 1 simblasGemm (1 memset
//                       and the GEMM kernel through the library's static runtime, the
//                       split-K kernel through the driver API), 1 cudaStreamSynchronize,
//                       then prof_step (looked up with dlsym: runs without the agent too).
//   library_app STEPS --operators : the same, with the simblasGemm call inside an operator
//                       range "aten::mm" (prof_operator_push/pop), as PyTorch's would be.
// Exit status 2 (with the failed call on stderr) if any CUDA call fails.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sim/sim_blas.h"
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
  bool operators = argc > 2 && std::strcmp(argv[2], "--operators") == 0;
  auto prof_step = reinterpret_cast<void (*)(int64_t)>(dlsym(RTLD_DEFAULT, "prof_step"));
  auto operator_push =
      reinterpret_cast<void (*)(const char*)>(dlsym(RTLD_DEFAULT, "prof_operator_push"));
  auto operator_pop = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "prof_operator_pop"));
  if (!operator_push || !operator_pop) operators = false;
  const void* elementwise = simRegisterKernel("elementwise_kernel");
  const void* reduce = simRegisterKernel("reduce_kernel");
  const size_t workspace_bytes = size_t{1} << 16;
  void* workspace = nullptr;
  CHECK_CUDA(cudaMalloc(&workspace, workspace_bytes));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  for (int step = 0; step < steps; ++step) {
    CHECK_CUDA(cudaLaunchKernel(elementwise, dim3(256), dim3(256), nullptr, 0, stream));
    if (operators) operator_push("aten::mm");
    CHECK_CUDA(simblasGemm(stream, workspace, workspace_bytes));
    if (operators) operator_pop();
    CHECK_CUDA(cudaLaunchKernel(reduce, dim3(64), dim3(256), nullptr, 0, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    if (prof_step) prof_step(1);
  }
  CHECK_CUDA(cudaFree(workspace));
  std::printf("steps %d\n", steps);
  return 0;
}
