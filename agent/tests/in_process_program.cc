// The agent loaded into a running program (dlopen, RTLD_LOCAL: what `import libprof` does
// without LD_PRELOAD) rather than preloaded: argv[1] is libprof.so's path. Under
// PROF_SCHEDULE=off the program opens one window with prof_start (from the handle), launches
// argv[2] kernels in it, closes it with prof_stop and waits for its file (prof_flush).
// Then it launches as many again outside any window. Prints "window <index> flush <result>".
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "sim/sim_ext.h"

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const void* kernel = simRegisterKernel("in_process_kernel");
  void* memory = nullptr;
  if (cudaMalloc(&memory, 4096) != cudaSuccess) return 1;  // CUDA in use before the agent
  void* agent = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!agent) {
    std::printf("dlopen: %s\n", dlerror());
    return 3;
  }
  const auto start = reinterpret_cast<int (*)(void)>(dlsym(agent, "prof_start"));
  const auto stop = reinterpret_cast<int (*)(void)>(dlsym(agent, "prof_stop"));
  const auto flush = reinterpret_cast<int (*)(int)>(dlsym(agent, "prof_flush"));
  if (!start || !stop || !flush) return 4;
  const int launches = std::atoi(argv[2]);
  const int window = start();
  for (int i = 0; i < launches; ++i) {
    cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, nullptr);
  }
  cudaDeviceSynchronize();
  stop();
  std::printf("window %d flush %d\n", window, flush(5000));
  for (int i = 0; i < launches; ++i) {
    cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, nullptr);
  }
  cudaDeviceSynchronize();
  return 0;
}
