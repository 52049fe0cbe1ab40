// A program with another CUPTI client in it (the Kineto stand-in, //testdata/sim:kineto),
// as a PyTorch program running torch.profiler is.
//   neighbour_app [--steps N] [--step-us U] [--kineto-init S] [--kineto-trace A:B]
//                 [--kineto-shutdown S] [--shutdown-pause-us P] [--cpu-trace C:D]
// Per step: 2 kernels through the shared runtime, a stream sync, U us of host work, then
// prof_step (dlsym: runs without the agent too). Kineto is initialized at the top of step
// S (by torch.profiler, or by libprof's helper starting torch's CPU-only operator
// collection: the same libkineto_init), traces steps [A, B) with CUDA activities, and
// unsubscribes at
// the top of step S, then the program sleeps P us (a pause as long as a checkpoint, which
// lets a test wait for libprof's writer to take CUPTI back without racing it; Kineto itself
// unsubscribes only with TEARDOWN_CUPTI=1). Kineto is initialized once per process, as torch
// does. Prints "kineto_gpu 0|1", "kineto_kernels N" (kernel records Kineto received) and
// "kineto_unknown_buffers N" (buffers completed to Kineto that it never handed out).
// --cpu-trace C:D: a CPU-only trace of steps [C, D) (torch's CPU activities, which Kineto
// records with CUPTI's RUNTIME and DRIVER kinds once it can trace CUDA), as libprof's
// helper runs torch's operator collection in its windows.
// Exit status 2 if a CUDA call fails.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sim/sim_ext.h"
#include "sim/sim_kineto.h"

namespace {

struct Options {
  int steps = 20;
  int step_us = 0;
  int init_step = -1;
  int trace_begin = -1;
  int trace_end = -1;
  int cpu_begin = -1;
  int cpu_end = -1;
  int shutdown_step = -1;
  int shutdown_pause_us = 0;
};

Options Parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (!std::strcmp(argv[i], "--steps")) options.steps = std::atoi(value);
    if (!std::strcmp(argv[i], "--step-us")) options.step_us = std::atoi(value);
    if (!std::strcmp(argv[i], "--kineto-init")) options.init_step = std::atoi(value);
    if (!std::strcmp(argv[i], "--kineto-shutdown")) options.shutdown_step = std::atoi(value);
    if (!std::strcmp(argv[i], "--shutdown-pause-us")) {
      options.shutdown_pause_us = std::atoi(value);
    }
    if (!std::strcmp(argv[i], "--cpu-trace")) {
      std::sscanf(value, "%d:%d", &options.cpu_begin, &options.cpu_end);
    }
    if (!std::strcmp(argv[i], "--kineto-trace")) {
      std::sscanf(value, "%d:%d", &options.trace_begin, &options.trace_end);
    }
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = Parse(argc, argv);
  auto prof_step = reinterpret_cast<void (*)(int64_t)>(dlsym(RTLD_DEFAULT, "prof_step"));
  const void* forward = simRegisterKernel("forward_kernel");
  const void* backward = simRegisterKernel("backward_kernel");
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess) return 2;
  int kineto_gpu = -1;
  long kineto_kernels = 0;
  for (int step = 0; step < options.steps; ++step) {
    if (step == options.init_step) kineto_gpu = simKinetoInit();
    if (step == options.shutdown_step) {
      simKinetoShutdown();
      if (options.shutdown_pause_us > 0) usleep(options.shutdown_pause_us);
    }
    if (step == options.cpu_begin) simKinetoStartTrace(0);
    if (step == options.cpu_end) simKinetoStopTrace();
    if (step == options.trace_begin) simKinetoStartTrace(1);
    if (step == options.trace_end) kineto_kernels = simKinetoStopTrace();
    if (cudaLaunchKernel(forward, dim3(64), dim3(256), nullptr, 0, stream) != cudaSuccess ||
        cudaLaunchKernel(backward, dim3(64), dim3(256), nullptr, 0, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess) {
      std::fprintf(stderr, "a CUDA call failed in step %d\n", step);
      return 2;
    }
    if (options.step_us > 0) usleep(options.step_us);
    if (prof_step) prof_step(1);
  }
  if (options.trace_end == options.steps) kineto_kernels = simKinetoStopTrace();
  std::printf("kineto_gpu %d\nkineto_kernels %ld\nkineto_unknown_buffers %ld\n", kineto_gpu,
              kineto_kernels, simKinetoUnknownBuffers());
  return 0;
}
