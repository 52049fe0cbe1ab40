// A CUDA program (on the simulated runtime) that ends in the way argv[1] names, for the
// agent's exit-path tests: normal, exit-from-thread, exception, _exit, run-until-killed,
// and report (what the program can see of the process: signal dispositions and open file
// descriptors, at start and after recording).
// It launches kernels in steps marked through the agent's C API (looked up at run time).
#include <cuda_runtime_api.h>
#include <dirent.h>
#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "sim/sim_ext.h"

namespace {

bool g_no_steps = false;  // argv[3] == "nosteps": leave step boundaries to PROF_STEP_MARKER

void Step(int64_t samples) {
  using StepFunction = void (*)(int64_t);
  static auto step = reinterpret_cast<StepFunction>(dlsym(RTLD_DEFAULT, "prof_step"));
  if (step) step(samples);
}

void LaunchSteps(int steps, int launches_per_step) {
  const void* kernel = simRegisterKernel("lifecycle_kernel");
  void* device = nullptr;
  cudaMalloc(&device, 4096);
  for (int step = 0; step < steps; ++step) {
    for (int i = 0; i < launches_per_step; ++i) {
      cudaLaunchKernel(kernel, dim3(4), dim3(128), nullptr, 0, nullptr);
    }
    cudaDeviceSynchronize();
    if (!g_no_steps) Step(32);
  }
  cudaFree(device);
}

// Prints the disposition of each terminating signal and the number of open descriptors.
void Report(const char* when) {
  const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};
  for (int signal_number : signals) {
    struct sigaction current;
    sigaction(signal_number, nullptr, &current);
    const bool is_default = !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL;
    std::printf("%s: %s %s\n", when, strsignal(signal_number), is_default ? "default" : "handled");
  }
  int descriptors = 0;
  if (DIR* folder = opendir("/proc/self/fd")) {
    while (readdir(folder)) ++descriptors;
    closedir(folder);
  }
  std::printf("%s: %d descriptors\n", when, descriptors);
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "normal";
  const int steps = argc > 2 ? std::atoi(argv[2]) : 4;
  g_no_steps = argc > 3 && std::strcmp(argv[3], "nosteps") == 0;
  if (std::strcmp(mode, "run-until-killed") == 0) {
    std::printf("ready\n");
    std::fflush(stdout);
    for (;;) LaunchSteps(1, 50);
  }
  if (std::strcmp(mode, "report") == 0) Report("start");
  LaunchSteps(steps, 10);
  if (std::strcmp(mode, "report") == 0) {
    usleep(100000);  // the writer has opened the window
    struct sigaction current;
    sigaction(SIGINT, nullptr, &current);
    std::printf("recording: SIGINT %s\n", current.sa_handler == SIG_DFL ? "default" : "handled");
  }
  if (std::strcmp(mode, "exit-from-thread") == 0) {
    std::thread([] { std::exit(7); }).join();
  }
  if (std::strcmp(mode, "exception") == 0) throw std::runtime_error("uncaught on purpose");
  if (std::strcmp(mode, "exec") == 0) {
    usleep(300000);  // long enough for the writer's periodic flush
    execl("/bin/sh", "sh", "-c", "exit 3", static_cast<char*>(nullptr));
    return 99;
  }
  if (std::strcmp(mode, "_exit") == 0) {
    usleep(300000);  // long enough for the writer's periodic flush
    _exit(5);
  }
  return 0;
}
