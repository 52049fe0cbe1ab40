// `threads_fork_graph`: the process shapes that break profilers.
//   1. Before touching CUDA, fork a worker that uses CUDA itself (its own truth file).
//   2. T threads launch kernels concurrently, each on its own stream, inside an NVTX
//      range (outside steps).
//   3. Fork a worker that uses no CUDA (like a data-loader worker) and leaves via _exit.
//   4. Capture three kernels into a CUDA graph and replay it K times, one step each.
// Truth files: PATH for the main process, PATH with ".child_cuda" / ".child_nocuda"
// before ".json" for the workers. Exit status is non-zero if any process failed.
//
//   threads_fork_graph [--threads T] [--launches-per-thread L] [--replays K] [--truth PATH]
#include <cuda_runtime_api.h>
#include <sim/sim_ext.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "testdata/workloads/common/device_actions.h"
#include "testdata/workloads/common/flags.h"
#include "testdata/workloads/common/nvtx_scope.h"
#include "testdata/workloads/common/prof_api.h"
#include "testdata/workloads/common/truth_recorder.h"

namespace {

using workloads::CheckCuda;

const dim3 kGrid(64, 1, 1);
const dim3 kBlock(128, 1, 1);

std::string WorkerPath(const std::string& path, const std::string& tag) {
  if (path.empty()) return path;
  const std::string suffix = ".json";
  if (path.size() > suffix.size() &&
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return path.substr(0, path.size() - suffix.size()) + "." + tag + suffix;
  }
  return path + "." + tag;
}

// The CUDA-using worker: forked before the parent initialised CUDA, so it may use CUDA.
int CudaWorker(const std::string& truth_path) {
  workloads::TruthRecorder truth("threads_fork_graph.child_cuda", 0, 1);
  workloads::DeviceActions device(&truth);
  const workloads::Kernel kernel = workloads::RegisterKernel("_Z13child_kernelPfi");
  std::vector<float> host(4096, 1.0f);
  void* buffer = nullptr;
  CheckCuda(cudaMalloc(&buffer, host.size() * sizeof(float)), "cudaMalloc");
  device.CopyAsync(buffer, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice,
                   nullptr);
  for (int i = 0; i < 20; ++i) device.Launch(kernel, kGrid, kBlock, nullptr);
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  cudaFree(buffer);
  return truth.WriteFile(WorkerPath(truth_path, "child_cuda")) ? 0 : 1;
}

// The worker without CUDA, forked after the parent used CUDA; it only uses the agent's
// C API and leaves through _exit (no atexit handlers, no static destructors).
void NoCudaWorker(const std::string& truth_path) {
  workloads::TruthRecorder truth("threads_fork_graph.child_nocuda", 0, 1);
  workloads::ProfApi prof(&truth);
  prof.Mark("worker_started");
  usleep(10 * 1000);
  const bool written = truth.WriteFile(WorkerPath(truth_path, "child_nocuda"));
  _exit(written ? 0 : 1);
}

void ConcurrentLaunchers(workloads::DeviceActions* device, int threads, int64_t launches) {
  const workloads::Kernel kernel = workloads::RegisterKernel("_Z13worker_kernelIiEvPT_i");
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([device, &kernel, launches] {
      cudaStream_t stream;
      CheckCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
      {
        workloads::NvtxScope range(device->truth(), "launcher_thread");
        for (int64_t i = 0; i < launches; ++i) device->Launch(kernel, kGrid, kBlock, stream);
      }
      CheckCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      cudaStreamDestroy(stream);
    });
  }
  for (auto& worker : workers) worker.join();
}

// Captures three kernels into a graph and replays it `replays` times, one step each.
// Captured launches do not run, so only replays are recorded (library "graph").
void GraphReplays(workloads::DeviceActions* device, workloads::ProfApi* prof, int64_t replays) {
  const std::vector<workloads::Kernel> kernels = {
      workloads::RegisterKernel("_Z14graph_kernel_aPf"),
      workloads::RegisterKernel("_Z14graph_kernel_bPf"),
      workloads::RegisterKernel("volta_sgemm_64x64_nn")};
  cudaStream_t stream;
  CheckCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CheckCuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
  for (const auto& kernel : kernels) device->LaunchUnrecorded(kernel, kGrid, kBlock, stream);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CheckCuda(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  CheckCuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (int64_t replay = 0; replay < replays; ++replay) {
    prof->BeginStep();
    CheckCuda(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    for (const auto& kernel : kernels) {
      device->truth()->RecordKernel(
          kernel.name, simKernelDurationNs(kernel.name.c_str(), kGrid, kBlock), "graph");
    }
    CheckCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    prof->Step(1);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  device->truth()->SetExtraJson("graph", "{\"nodes\": " + std::to_string(kernels.size()) +
                                             ", \"replays\": " + std::to_string(replays) +
                                             ", \"captured_kernels_executed_at_capture\": 0}");
}

bool ChildSucceeded(pid_t pid, const char* what) {
  int status = 0;
  waitpid(pid, &status, 0);
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) std::fprintf(stderr, "threads_fork_graph: %s worker failed (0x%x)\n", what, status);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string truth_path = workloads::TruthPathFromArgsOrEnv(argc, argv);
  const workloads::Flags flags(
      argc, argv,
      {{"threads", "4"}, {"launches-per-thread", "200"}, {"replays", "5"}, {"truth", ""}});
  std::fflush(nullptr);
  const pid_t cuda_worker = fork();
  if (cuda_worker == 0) std::exit(CudaWorker(truth_path));
  workloads::TruthRecorder truth("threads_fork_graph", 0, 1);
  for (const auto& flag : flags.all()) truth.SetArg(flag.first, flag.second);
  workloads::ProfApi prof(&truth);
  workloads::DeviceActions device(&truth);
  ConcurrentLaunchers(&device, static_cast<int>(flags.Int("threads")),
                      flags.Int("launches-per-thread"));
  std::fflush(nullptr);
  const pid_t plain_worker = fork();
  if (plain_worker == 0) NoCudaWorker(truth_path);
  GraphReplays(&device, &prof, flags.Int("replays"));
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const bool workers_ok =
      ChildSucceeded(cuda_worker, "CUDA") & ChildSucceeded(plain_worker, "no-CUDA");
  return truth.WriteFile(truth_path) && workers_ok ? 0 : 1;
}
