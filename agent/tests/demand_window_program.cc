// Drives windows through the C API (prof_start, prof_stop, prof_flush, prof_window_file),
// looked up at run time as programs do. argv[1] is a script, one letter per action:
//   k  one step: a range "work_<step>" around one cudaMemset, then prof_step(8)
//   b  prof_start: prints "start <index>"
//   e  prof_stop: prints "stop <index>"
//   f  prof_flush(5000), then prof_window_file of the last window started or stopped:
//      prints "flush <result> file <result> <path>"
//   R, C  prof_set_state(RECORD), prof_set_state(CLOSED): prints "state <index>"
//   E, X  a step like k, ended by prof_step_to(8, RECORD_AND_RETURN / CLOSED): prints
//      "step_to <index>"
//   g, h  prof_window_goes_on(-1 / CLOSED): prints "goes_on <result>"
//   n  a step like k, ended by prof_step_ended(8): prints "ended <flags>"
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

template <typename Function>
Function Find(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

int main(int argc, char** argv) {
  const auto step = Find<void (*)(int64_t)>("prof_step");
  const auto push = Find<void (*)(const char*)>("prof_range_push");
  const auto pop = Find<void (*)(void)>("prof_range_pop");
  const auto start = Find<int (*)(void)>("prof_start");
  const auto stop = Find<int (*)(void)>("prof_stop");
  const auto flush = Find<int (*)(int)>("prof_flush");
  const auto window_file = Find<int (*)(int, char*, size_t)>("prof_window_file");
  const auto set_state = Find<int (*)(int)>("prof_set_state");
  const auto step_to = Find<int (*)(int64_t, int)>("prof_step_to");
  const auto goes_on = Find<int (*)(int)>("prof_window_goes_on");
  const auto step_ended = Find<int (*)(int64_t)>("prof_step_ended");
  if (!step || !push || !pop || !start || !stop || !flush || !window_file || !set_state ||
      !step_to || !goes_on || !step_ended) {
    std::printf("no agent\n");
    return 2;
  }
  void* memory = nullptr;
  if (cudaMalloc(&memory, 4096) != cudaSuccess) return 1;
  const std::string script = argc > 1 ? argv[1] : "";
  int steps = 0;
  int last_window = -1;
  for (char action : script) {
    if (action == 'k' || action == 'n' || action == 'E' || action == 'X') {
      push(("work_" + std::to_string(steps)).c_str());
      cudaMemset(memory, 0, 4096);
      pop();
      if (action == 'k') {
        step(8);
      } else if (action == 'n') {
        std::printf("ended %d\n", step_ended(8));
      } else {
        std::printf("step_to %d\n", step_to(8, action == 'E' ? 3 : 0));
      }
      ++steps;
    } else if (action == 'g' || action == 'h') {
      std::printf("goes_on %d\n", goes_on(action == 'g' ? -1 : 0));
    } else if (action == 'R' || action == 'C') {
      std::printf("state %d\n", set_state(action == 'R' ? 2 : 0));
    } else if (action == 'b') {
      last_window = start();
      std::printf("start %d\n", last_window);
    } else if (action == 'e') {
      const int stopped = stop();
      if (stopped >= 0) last_window = stopped;
      std::printf("stop %d\n", stopped);
    } else if (action == 'f') {
      const int flushed = flush(5000);
      char path[4096] = "";
      const int found = window_file(last_window, path, sizeof(path));
      std::printf("flush %d file %d %s\n", flushed, found, path);
    }
  }
  cudaDeviceSynchronize();
  return 0;
}
