// A long-running job for the on-demand trigger tests: argv[1] steps of argv[2] ms each,
// every step a range "work_<step>" around one cudaMemset, then prof_step(4) (looked up at
// run time). After its first step it writes its pid to argv[3] (written whole, then
// renamed), so the test knows when its session runs and whom to trigger.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const int steps = std::atoi(argv[1]);
  const int step_ms = std::atoi(argv[2]);
  const std::string ready = argv[3];
  const auto step = reinterpret_cast<void (*)(int64_t)>(dlsym(RTLD_DEFAULT, "prof_step"));
  const auto push = reinterpret_cast<void (*)(const char*)>(dlsym(RTLD_DEFAULT, "prof_range_push"));
  const auto pop = reinterpret_cast<void (*)(void)>(dlsym(RTLD_DEFAULT, "prof_range_pop"));
  if (!step || !push || !pop) return 3;
  void* memory = nullptr;
  if (cudaMalloc(&memory, 4096) != cudaSuccess) return 1;
  for (int i = 0; i < steps; ++i) {
    push(("work_" + std::to_string(i)).c_str());
    cudaMemset(memory, 0, 4096);
    pop();
    step(4);
    if (i == 0) {
      const std::string temporary = ready + ".tmp";
      FILE* file = std::fopen(temporary.c_str(), "w");
      if (!file) return 4;
      std::fprintf(file, "%d\n", static_cast<int>(getpid()));
      std::fclose(file);
      std::rename(temporary.c_str(), ready.c_str());
    }
    usleep(static_cast<useconds_t>(step_ms) * 1000);
  }
  cudaDeviceSynchronize();
  return 0;
}
