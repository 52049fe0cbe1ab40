// A program on the toolkit's REAL libcudart.so.13 (@cuda//:real_cudart), for the test that
// runs it with and without the agent. Without a driver (or with one too old) every call
// fails, as on a GPU machine whose driver is missing; with a GPU most succeed. It prints
// each call's result on stdout (the same with or without the agent), steps through
// prof_step when the agent is there (looked up at run time, so nothing is printed about
// it), and exits with 5 when the runtime found no usable device, else 0.
// Exit 77: built without a real libcudart (PROF_NO_REAL_CUDART).
#include <cstdio>
#include <cstdlib>

#ifdef PROF_NO_REAL_CUDART
int main() {
  std::printf("no real libcudart.so.13 in the CUDA toolkit\n");
  return 77;
}
#else
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdint>

namespace {

void Report(const char* call, cudaError_t result) {
  std::printf("%s: %s\n", call, cudaGetErrorName(result));
}

// Never a device function: a launch fails cleanly (no driver, or an unregistered kernel).
void NotAKernel() {}

void OneStep() {
  void* device = nullptr;
  Report("cudaMalloc", cudaMalloc(&device, 4096));
  char host[64] = {};
  Report("cudaMemcpy", cudaMemcpy(device, host, sizeof(host), cudaMemcpyHostToDevice));
  cudaStream_t stream = nullptr;
  Report("cudaStreamCreate", cudaStreamCreate(&stream));
  Report("cudaMemsetAsync", cudaMemsetAsync(device, 0, sizeof(host), stream));
  Report("cudaLaunchKernel", cudaLaunchKernel(reinterpret_cast<const void*>(&NotAKernel), dim3(1),
                                              dim3(1), nullptr, 0, stream));
  Report("cudaStreamSynchronize", cudaStreamSynchronize(stream));
  Report("cudaDeviceSynchronize", cudaDeviceSynchronize());
  Report("cudaGetLastError", cudaGetLastError());
  if (stream) Report("cudaStreamDestroy", cudaStreamDestroy(stream));
  if (device) Report("cudaFree", cudaFree(device));
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 1;
  auto prof_step = reinterpret_cast<void (*)(int64_t)>(dlsym(RTLD_DEFAULT, "prof_step"));
  int count = -1;
  const cudaError_t found = cudaGetDeviceCount(&count);
  Report("cudaGetDeviceCount", found);
  std::printf("devices: %d\n", found == cudaSuccess ? count : 0);
  for (int step = 0; step < steps; ++step) {
    OneStep();
    if (prof_step) prof_step(1);
  }
  return found == cudaSuccess && count > 0 ? 0 : 5;
}
#endif
