// Added host cost of an intercepted call: the same CUDA call made through the symbol the
// program links (libprof's interposer, when preloaded) and directly through the runtime's
// own definition (dlsym on libcudart), alternating in one process, many times. Run it
// under LD_PRELOAD=libprof.so with a PROF_SCHEDULE that puts step 0 in the state to
// measure (scripts/bench.sh does). Prints figures; asserts nothing.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

uint64_t NowNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

using EventRecord = cudaError_t (*)(cudaEvent_t, cudaStream_t);

// Median over `rounds` of the average time per call in a batch of `batch` calls.
double MedianNsPerCall(EventRecord record, cudaEvent_t event, int rounds, int batch) {
  std::vector<double> per_call(rounds);
  for (int round = 0; round < rounds; ++round) {
    const uint64_t start = NowNs();
    for (int i = 0; i < batch; ++i) record(event, nullptr);
    per_call[round] = static_cast<double>(NowNs() - start) / batch;
  }
  std::nth_element(per_call.begin(), per_call.begin() + rounds / 2, per_call.end());
  return per_call[rounds / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const char* label = argc > 1 ? argv[1] : "?";
  const int rounds = 2000;
  const int batch = 1000;  // 2M calls each way
  void* runtime = dlopen("libcudart.so.13", RTLD_NOW | RTLD_NOLOAD);
  auto direct =
      runtime ? reinterpret_cast<EventRecord>(dlsym(runtime, "cudaEventRecord")) : nullptr;
  auto linked = reinterpret_cast<EventRecord>(dlsym(RTLD_DEFAULT, "cudaEventRecord"));
  if (!direct || !linked) {
    std::fprintf(stderr, "hook_cost_benchmark: cannot find cudaEventRecord\n");
    return 1;
  }
  cudaEvent_t event;
  cudaEventCreate(&event);
  // Enter the state under test the way a program does: by ending step 0. The schedules in
  // scripts/bench.sh make step 1 CLOSED, READY or RECORD. Then give the writer time to
  // subscribe CUPTI (READY, RECORD).
  using StepFunction = void (*)(int64_t);
  if (auto step = reinterpret_cast<StepFunction>(dlsym(RTLD_DEFAULT, "prof_step"))) step(0);
  struct timespec pause = {0, 100000000};
  nanosleep(&pause, nullptr);
  MedianNsPerCall(linked, event, 100, batch);  // warm up (first buffer, writer thread)
  double direct_ns = 0, linked_ns = 0;
  // Alternate to share any drift of the machine between the two.
  for (int pass = 0; pass < 4; ++pass) {
    direct_ns += MedianNsPerCall(direct, event, rounds / 4, batch) / 4;
    linked_ns += MedianNsPerCall(linked, event, rounds / 4, batch) / 4;
  }
  std::printf("%-8s direct %7.1f ns/call   through libprof %7.1f ns/call   added %6.1f ns/call\n",
              label, direct_ns, linked_ns, linked_ns - direct_ns);
  cudaEventDestroy(event);
  return 0;
}
