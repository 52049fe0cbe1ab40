// The agent's sustained recording rate (issue 12): T threads each make a cheap intercepted
// CUDA call (cudaEventRecord on the simulated runtime) at a paced rate for a few seconds,
// so the figure measures the agent (hook, buffers, writer) rather than an expensive
// runtime call. Run under LD_PRELOAD=libprof.so; scripts/sustained_rate.py reads the trace
// and finds the highest rate that loses nothing. Prints figures; asserts nothing.
//
//   record_rate_benchmark THREADS RATE_PER_THREAD SECONDS     (RATE 0: as fast as it can)
#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Paced: every 16 calls, spins until the time call i is due.
uint64_t CallLoop(cudaEvent_t event, double rate, double seconds) {
  const auto start = Clock::now();
  const auto end = start + std::chrono::nanoseconds(static_cast<int64_t>(seconds * 1e9));
  uint64_t calls = 0;
  while (true) {
    if (calls % 16 == 0) {
      const auto now = Clock::now();
      if (now >= end) break;
      if (rate > 0) {
        const auto due = start + std::chrono::nanoseconds(static_cast<int64_t>(calls * 1e9 / rate));
        while (Clock::now() < due) {
        }
      }
    }
    cudaEventRecord(event, nullptr);
    ++calls;
  }
  return calls;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: record_rate_benchmark THREADS RATE_PER_THREAD SECONDS\n");
    return 2;
  }
  const int threads = std::atoi(argv[1]);
  const double rate = std::atof(argv[2]);
  const double seconds = std::atof(argv[3]);
  cudaEvent_t event;
  if (cudaEventCreate(&event) != cudaSuccess) return 1;
  std::vector<uint64_t> calls(threads);
  std::vector<std::thread> workers;
  const auto start = Clock::now();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] { calls[t] = CallLoop(event, rate, seconds); });
  }
  for (auto& worker : workers) worker.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  uint64_t total = 0;
  for (uint64_t count : calls) total += count;
  std::printf("calls %llu rate %.0f\n", static_cast<unsigned long long>(total), total / elapsed);
  cudaEventDestroy(event);
  return 0;
}
