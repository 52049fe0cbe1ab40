// The flight recorder across fork (run with PROF_FLIGHT=1): the parent records (a CUDA
// call, ranges "parent_<i>", 3 steps) so its session, writer and rings are running, then
// forks; the child, which may not use CUDA after its parent did, marks ranges "child_<i>"
// and 3 steps of its own, then ends itself with SIGTERM, which makes its agent dump. The
// parent prints "child <pid>" and exits 0 when the child ended by SIGTERM.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

using Step = void (*)(int64_t);
using Push = void (*)(const char*);
using Pop = void (*)(void);

void Work(const char* who, Step step, Push push, Pop pop, void* memory) {
  for (int i = 0; i < 3; ++i) {
    push((std::string(who) + "_" + std::to_string(i)).c_str());
    if (memory) cudaMemset(memory, 0, 4096);
    usleep(20 * 1000);
    pop();
    step(1);
  }
}

}  // namespace

int main() {
  const auto step = reinterpret_cast<Step>(dlsym(RTLD_DEFAULT, "prof_step"));
  const auto push = reinterpret_cast<Push>(dlsym(RTLD_DEFAULT, "prof_range_push"));
  const auto pop = reinterpret_cast<Pop>(dlsym(RTLD_DEFAULT, "prof_range_pop"));
  if (!step || !push || !pop) return 3;
  void* memory = nullptr;
  if (cudaMalloc(&memory, 4096) != cudaSuccess) return 1;
  Work("parent", step, push, pop, memory);
  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return 4;
  if (child == 0) {
    Work("child", step, push, pop, nullptr);
    raise(SIGTERM);
    _exit(6);  // not reached: SIGTERM's default action ends the child
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return 5;
  std::printf("child %d\n", static_cast<int>(child));
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? 0 : 7;
}
