#include "testdata/sim/nccl/tests/rank_harness.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace simnccl_test {
namespace {

uint64_t NowMs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

int ExitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 255;
}

}  // namespace

std::vector<int> RunRanks(int nranks, const RankBody& body, int deadline_ms) {
  ncclUniqueId id;
  if (ncclGetUniqueId(&id) != ncclSuccess) return std::vector<int>(nranks, 254);
  std::vector<pid_t> children(nranks, -1);
  for (int rank = 0; rank < nranks; ++rank) {
    const pid_t pid = fork();
    if (pid == 0) {
      std::fflush(nullptr);
      const int code = body(rank, nranks, id);
      std::fflush(nullptr);
      _exit(code);  // skip the parent's atexit handlers (Catch2's reporter)
    }
    children[rank] = pid;
  }
  std::vector<int> codes(nranks, 253);
  int remaining = nranks;
  const uint64_t deadline = NowMs() + deadline_ms;
  while (remaining > 0) {
    for (int rank = 0; rank < nranks; ++rank) {
      int status = 0;
      if (children[rank] > 0 && waitpid(children[rank], &status, WNOHANG) == children[rank]) {
        codes[rank] = ExitCodeOf(status);
        children[rank] = -1;
        --remaining;
      }
    }
    if (remaining > 0 && NowMs() > deadline) {
      for (pid_t pid : children) {
        if (pid > 0) kill(pid, SIGKILL);
      }
      for (int rank = 0; rank < nranks; ++rank) {
        if (children[rank] > 0) {
          waitpid(children[rank], nullptr, 0);
          codes[rank] = 252;  // deadline exceeded
        }
      }
      break;
    }
    usleep(2000);
  }
  return codes;
}

void* SharedScratch(size_t bytes) {
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) std::abort();
  return memory;
}

}  // namespace simnccl_test
