// Stream capture records work instead of running it; graph launches replay it.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/sim_ext.h"
#include "testdata/sim/tests/sim_test_util.h"

TEST_CASE("captured work runs only when the graph is launched") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  int* device = nullptr;
  int host = 0;
  REQUIRE(cudaMalloc(&device, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(device, 0, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const void* kernel = simRegisterKernel("graphKernel");

  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cudaStreamCaptureStatus status;
  REQUIRE(cudaStreamIsCapturing(stream, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusActive);
  uint64_t ready_before = simStreamReadyTimeNs(stream);
  REQUIRE(cudaLaunchKernel(kernel, dim3(2), dim3(64), nullptr, 0, stream) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(device, 0x7F, sizeof(int), stream) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(&host, device, sizeof(int), cudaMemcpyDeviceToHost, stream) ==
          cudaSuccess);
  CHECK(simStreamReadyTimeNs(stream) == ready_before);  // nothing was scheduled
  CHECK(host == 0);                                     // nothing moved
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  REQUIRE(graph != nullptr);
  REQUIRE(cudaStreamIsCapturing(stream, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);

  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  uint64_t launch_time = simNowNs();
  REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
  uint64_t first_end = simStreamReadyTimeNs(stream);
  CHECK(first_end - launch_time >=
        simKernelDurationNs("graphKernel", dim3(2), dim3(64)) + simMemsetDurationNs(sizeof(int)));
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(host == 0x7F7F7F7F);
  host = 0;
  REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);  // replays again
  CHECK(simStreamReadyTimeNs(stream) > first_end);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(host == 0x7F7F7F7F);

  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, stream) == cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  cudaFree(device);
  cudaStreamDestroy(stream);
}

TEST_CASE("illegal calls during capture invalidate it") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal) ==
        cudaErrorStreamCaptureUnsupported);
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaErrorIllegalState);
  CHECK(cudaStreamSynchronize(stream) == cudaErrorStreamCaptureUnsupported);
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(0x1);
  CHECK(cudaStreamEndCapture(stream, &graph) == cudaErrorStreamCaptureInvalidated);
  CHECK(graph == nullptr);
  CHECK(cudaStreamEndCapture(stream, &graph) == cudaErrorIllegalState);
  cudaGetLastError();
  cudaStreamDestroy(stream);
}

TEST_CASE("a stream waiting on a captured event joins the capture") {
  cudaStream_t origin, side;
  REQUIRE(cudaStreamCreate(&origin) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&side) == cudaSuccess);
  cudaEvent_t fork;
  REQUIRE(cudaEventCreate(&fork) == cudaSuccess);
  REQUIRE(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal) == cudaSuccess);
  REQUIRE(cudaEventRecord(fork, origin) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(side, fork, 0) == cudaSuccess);
  uint64_t side_ready = simStreamReadyTimeNs(side);
  REQUIRE(simLaunchNamedKernel("sideKernel", dim3(1), dim3(1), 0, side, 1000, 0) == cudaSuccess);
  CHECK(simStreamReadyTimeNs(side) == side_ready);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(origin, &graph) == cudaSuccess);
  cudaStreamCaptureStatus status;
  REQUIRE(cudaStreamIsCapturing(side, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, origin) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(origin) == cudaSuccess);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaEventDestroy(fork);
  cudaStreamDestroy(origin);
  cudaStreamDestroy(side);
}

TEST_CASE("a forked child keeps using the runtime") {
  int* device = nullptr;
  REQUIRE(cudaMalloc(&device, sizeof(int)) == cudaSuccess);
  pid_t child = fork();
  if (child == 0) {
    int value = 42, back = 0;
    bool ok = cudaMemcpy(device, &value, sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(&back, device, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess &&
              cudaDeviceSynchronize() == cudaSuccess && back == 42;
    _exit(ok ? 0 : 1);
  }
  REQUIRE(child > 0);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  cudaFree(device);
}
