// Cost of a step boundary on the application's thread: prof_step called in a loop, found
// with dlsym like a program finds it, under LD_PRELOAD=libprof.so with the PROF_SCHEDULE
// that puts the steps in the state to measure (CLOSED, RECORD, or a schedule that opens
// and closes a window every few steps). A short host pause between steps stands for the
// program's work. Prints the mean, median and maximum ns per call; asserts nothing.
//
//   LD_PRELOAD=libprof.so PROF_SCHEDULE=skip_first=100000000,record=1 step_cost_benchmark CLOSED
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime_api.h>

namespace {

uint64_t NowNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

// The program's work between two steps: a busy wait, so the writer thread runs meanwhile.
void Work(uint64_t ns) {
  const uint64_t until = NowNs() + ns;
  while (NowNs() < until) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  const char* label = argc > 1 ? argv[1] : "?";
  const int steps = argc > 2 ? std::atoi(argv[2]) : 20000;
  const uint64_t work_ns = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 20000;
  using StepFunction = void (*)(int64_t);
  auto step = reinterpret_cast<StepFunction>(dlsym(RTLD_DEFAULT, "prof_step"));
  if (!step) {
    std::fprintf(stderr, "step_cost_benchmark: prof_step not found (run under libprof.so)\n");
    return 1;
  }
  cudaEvent_t event;  // a CUDA call starts the session (and loads the runtime for CUPTI)
  cudaEventCreate(&event);
  cudaEventRecord(event, nullptr);
  step(0);  // step 0 ends: the first call starts the writer
  std::vector<uint64_t> cost(steps);
  for (int i = 0; i < steps; ++i) {
    Work(work_ns);
    const uint64_t start = NowNs();
    step(32);
    cost[i] = NowNs() - start;
  }
  uint64_t total = 0;
  for (uint64_t c : cost) total += c;
  std::vector<uint64_t> sorted = cost;
  std::sort(sorted.begin(), sorted.end());
  std::printf("prof_step %-8s %d calls: mean %.0f ns, median %llu ns, p99 %llu ns, max %llu ns\n",
              label, steps, static_cast<double>(total) / steps,
              static_cast<unsigned long long>(sorted[steps / 2]),
              static_cast<unsigned long long>(sorted[steps * 99 / 100]),
              static_cast<unsigned long long>(sorted.back()));
  return 0;
}
