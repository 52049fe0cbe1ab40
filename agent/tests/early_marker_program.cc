// Launches the kernel that its DT_NEEDED library (early_kernels.cc) registered before the
// agent's constructor ran: argv[1] times, one launch per step, and marks no step itself
// (PROF_STEP_MARKER=kernel:... ends them).
#include <cuda_runtime_api.h>

#include <cstdlib>

extern "C" const void* g_early_marker_kernel;

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 4;
  for (int i = 0; i < launches; ++i) {
    cudaLaunchKernel(g_early_marker_kernel, dim3(1), dim3(32), nullptr, 0, nullptr);
  }
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
