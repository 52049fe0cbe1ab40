// The flight recorder's host rings with more threads than full rings (run with
// PROF_FLIGHT=1): 70 threads each make one cudaMemset (of their own bytes) and stay alive
// until all 70 have; with the main thread (which made the cudaMalloc) 71 threads hold
// rings at once: 64 full ones and 7 small ones. The main thread then ends the process
// with SIGTERM, which makes the agent dump. The program never steps and calls no NCCL:
// with no window, its CUDA calls alone must start the agent's session (the writer thread
// and the flush handler) for the recorder to dump.
#include <cuda_runtime_api.h>
#include <signal.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

int main() {
  constexpr int kThreads = 70;
  void* memory = nullptr;
  if (cudaMalloc(&memory, 64 * kThreads) != cudaSuccess) return 1;
  std::mutex mutex;
  std::condition_variable changed;
  int done = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      cudaMemset(static_cast<char*>(memory) + 64 * t, 0, 64);  // its own bytes: no race
      std::unique_lock<std::mutex> lock(mutex);
      ++done;
      changed.notify_all();
      changed.wait(lock, [] { return false; });  // alive until the process ends
    });
  }
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return done == kThreads; });
  raise(SIGTERM);
  return 2;  // not reached
}
