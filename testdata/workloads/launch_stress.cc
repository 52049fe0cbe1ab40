// `launch_stress`: a launch-bound program. T threads, each on its own stream, issue tiny
// kernel launches as fast as they can, in R rounds (one step each; the main thread joins
// the threads and calls prof_step between rounds). Measures the host launch rate and
// writes it, with the exact truth, to --truth PATH (or $SIM_TRUTH).
//
//   launch_stress [--launches N] [--threads T] [--rounds R] [--rate L] [--truth PATH]
//
// --rate L paces each thread to L launches a second (0, the default: as fast as it can),
// for the agent's sustained-rate figures (scripts/sustained_rate.py).
#include <cuda_runtime_api.h>
#include <sim/sim_ext.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "testdata/workloads/common/device_actions.h"
#include "testdata/workloads/common/flags.h"
#include "testdata/workloads/common/prof_api.h"
#include "testdata/workloads/common/truth_recorder.h"

namespace {

using workloads::CheckCuda;

const dim3 kGrid(1, 1, 1);
const dim3 kBlock(32, 1, 1);

// One thread's share of a round; no truth recording inside the loop (a mutex per launch
// would measure the recorder, not the launches): the caller records the count in bulk.
void LaunchLoop(const workloads::Kernel& kernel, cudaStream_t stream, int64_t launches,
                double rate) {
  void* argument = nullptr;
  void* arguments[] = {&argument};
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < launches; ++i) {
    // Paced: every 16 launches, wait (spinning) for the time launch i is due.
    if (rate > 0 && i % 16 == 0) {
      const auto due = start + std::chrono::nanoseconds(static_cast<int64_t>(i * 1e9 / rate));
      while (std::chrono::steady_clock::now() < due) {
      }
    }
    CheckCuda(cudaLaunchKernel(kernel.host_function, kGrid, kBlock, arguments, 0, stream),
              "cudaLaunchKernel");
  }
}

// The simulator prices a kernel by a hash of its name (3-60 us); a launch-bound program
// needs the cheapest, so the shortest of a few realistic tiny-kernel names is used.
workloads::Kernel ShortestTinyKernel() {
  static const char* const kCandidates[] = {
      "_Z11tiny_kernelv",    "_Z11noop_kernelv",   "_Z12empty_kernelv", "_Z10nop_kernelv",
      "_Z13scalar_kernelPf", "_Z12touch_kernelPi", "_Z11flag_kernelPi", "_Z10inc_kernelPi",
      "_Z12fence_kernelv",   "_Z11ping_kernelv",   "_Z11poke_kernelPj", "_Z11tick_kernelPm",
      "_Z12delta_kernelPf",  "_Z11step_kernelPi",  "_Z12noise_kernelv", "_Z12blink_kernelv"};
  const char* best = kCandidates[0];
  for (const char* name : kCandidates) {
    if (simKernelDurationNs(name, kGrid, kBlock) < simKernelDurationNs(best, kGrid, kBlock)) {
      best = name;
    }
  }
  return workloads::RegisterKernel(best);
}

// Runs one round on all threads; returns the host seconds it took to issue the launches.
double RunRound(const workloads::Kernel& kernel, const std::vector<cudaStream_t>& streams,
                int64_t per_thread, double rate) {
  const uint64_t start = simNowNs();
  std::vector<std::thread> threads;
  for (cudaStream_t stream : streams) {
    threads.emplace_back(LaunchLoop, std::cref(kernel), stream, per_thread, rate);
  }
  for (auto& thread : threads) thread.join();
  return (simNowNs() - start) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string truth_path = workloads::TruthPathFromArgsOrEnv(argc, argv);
  const workloads::Flags flags(
      argc, argv,
      {{"launches", "200000"}, {"threads", "1"}, {"rounds", "10"}, {"rate", "0"}, {"truth", ""}});
  workloads::TruthRecorder truth("launch_stress", 0, 1);
  for (const auto& flag : flags.all()) truth.SetArg(flag.first, flag.second);
  workloads::ProfApi prof(&truth);
  const int threads = static_cast<int>(std::max<int64_t>(1, flags.Int("threads")));
  const int64_t rounds = std::max<int64_t>(1, flags.Int("rounds"));
  const int64_t per_thread = flags.Int("launches") / (rounds * threads);
  const workloads::Kernel kernel = ShortestTinyKernel();
  const uint64_t duration = simKernelDurationNs(kernel.name.c_str(), kGrid, kBlock);
  std::vector<cudaStream_t> streams(threads);
  for (cudaStream_t& stream : streams) {
    CheckCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  double issue_seconds = 0;
  for (int64_t round = 0; round < rounds; ++round) {
    prof.BeginStep();
    issue_seconds += RunRound(kernel, streams, per_thread, static_cast<double>(flags.Int("rate")));
    truth.RecordKernel(kernel.name, duration, "cudart",
                       static_cast<uint64_t>(per_thread * threads));
    prof.Step(per_thread * threads);
  }
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  for (cudaStream_t stream : streams) cudaStreamDestroy(stream);
  const double total = static_cast<double>(per_thread * threads * rounds);
  const double rate = issue_seconds > 0 ? total / issue_seconds : 0;
  truth.SetArg("measured_launches_per_second", std::to_string(static_cast<int64_t>(rate)));
  std::printf("%.0f launches in %.3f s of issuing: %.0f launches/s\n", total, issue_seconds, rate);
  return truth.WriteFile(truth_path) ? 0 : 1;
}
