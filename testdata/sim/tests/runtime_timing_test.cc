// The timing model: per-stream order, overlap across streams, default-stream semantics,
// events, and synchronization that really blocks.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>

#include "sim/sim_ext.h"
#include "testdata/sim/tests/sim_test_util.h"

using simtest::Interval;
using simtest::kMs;
using simtest::LastItem;
using simtest::LaunchFor;

TEST_CASE("work on one stream runs in order") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  const void* kernel = simRegisterKernel("orderKernel");
  REQUIRE(cudaLaunchKernel(kernel, dim3(4), dim3(128), nullptr, 0, stream) == cudaSuccess);
  Interval first = LastItem();
  REQUIRE(cudaLaunchKernel(kernel, dim3(4), dim3(128), nullptr, 0, stream) == cudaSuccess);
  Interval second = LastItem();
  CHECK(first.end_ns - first.start_ns == simKernelDurationNs("orderKernel", dim3(4), dim3(128)));
  CHECK(second.start_ns >= first.end_ns);
  CHECK(second.correlation_id != first.correlation_id);
  CHECK(simStreamReadyTimeNs(stream) == second.end_ns);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("work on different streams overlaps") {
  cudaStream_t a, b;
  REQUIRE(cudaStreamCreate(&a) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&b) == cudaSuccess);
  Interval on_a = LaunchFor(a, 5 * kMs);
  Interval on_b = LaunchFor(b, 5 * kMs);
  CHECK(on_b.start_ns < on_a.end_ns);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

TEST_CASE("not_before delays a kernel") {
  uint64_t not_before = simNowNs() + 3 * kMs;
  cudaStream_t stream;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(simLaunchNamedKernel("late", dim3(1), dim3(1), 0, stream, 1000, not_before) ==
          cudaSuccess);
  Interval late = LastItem();
  CHECK(late.start_ns == not_before);
  CHECK(late.end_ns == not_before + 1000);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  cudaStreamDestroy(stream);
}

TEST_CASE("the legacy default stream synchronizes with blocking streams only") {
  cudaStream_t blocking, non_blocking;
  REQUIRE(cudaStreamCreate(&blocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&non_blocking, cudaStreamNonBlocking) == cudaSuccess);
  Interval on_blocking = LaunchFor(blocking, 4 * kMs);
  Interval on_legacy = LaunchFor(nullptr, 4 * kMs);
  CHECK(on_legacy.start_ns >= on_blocking.end_ns);  // legacy waits for the blocking stream
  Interval after_legacy = LaunchFor(blocking, 1000);
  CHECK(after_legacy.start_ns >= on_legacy.end_ns);  // and the blocking stream waits for it
  Interval independent = LaunchFor(non_blocking, 1000);
  CHECK(independent.start_ns < on_legacy.end_ns);  // a non-blocking stream does not
  Interval per_thread = LaunchFor(cudaStreamPerThread, 1000);
  CHECK(per_thread.start_ns >= on_legacy.end_ns);  // per-thread default stream is blocking
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(simNowNs() >= after_legacy.end_ns);
  cudaStreamDestroy(blocking);
  cudaStreamDestroy(non_blocking);
}

TEST_CASE("synchronizing calls block the host until completion") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  uint64_t before = simNowNs();
  Interval kernel = LaunchFor(stream, 20 * kMs);
  CHECK(cudaStreamQuery(stream) == cudaErrorNotReady);
  CHECK(cudaGetLastError() == cudaSuccess);  // not-ready is not an error
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  uint64_t after = simNowNs();
  CHECK(after >= kernel.end_ns);
  CHECK(after - before >= 20 * kMs);
  CHECK(cudaStreamQuery(stream) == cudaSuccess);

  Interval second = LaunchFor(stream, 10 * kMs);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(simNowNs() >= second.end_ns);
  cudaStreamDestroy(stream);
}

TEST_CASE("a synchronous cudaMemcpy waits for earlier legacy-stream work") {
  Interval kernel = LaunchFor(nullptr, 10 * kMs);
  int host = 0;
  int* device = nullptr;
  REQUIRE(cudaMalloc(&device, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpy(&host, device, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  Interval copy = LastItem();
  CHECK(copy.start_ns >= kernel.end_ns);
  CHECK(simNowNs() >= copy.end_ns);
  cudaFree(device);
}

TEST_CASE("events time device work and order streams") {
  cudaStream_t producer, consumer;
  REQUIRE(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking) == cudaSuccess);
  cudaEvent_t start, stop;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaSuccess);  // never recorded: complete
  REQUIRE(cudaEventRecord(start, producer) == cudaSuccess);
  Interval work = LaunchFor(producer, 10 * kMs);
  REQUIRE(cudaEventRecord(stop, producer) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaErrorNotReady);
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorNotReady);

  REQUIRE(cudaStreamWaitEvent(consumer, stop, 0) == cudaSuccess);
  Interval waiting = LaunchFor(consumer, 1000);
  CHECK(waiting.start_ns >= work.end_ns);

  REQUIRE(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(simNowNs() >= work.end_ns);
  REQUIRE(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 10.0f);
  CHECK(ms < 10.5f);
  cudaEvent_t untimed;
  REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
  REQUIRE(cudaEventRecord(untimed, producer) == cudaSuccess);
  REQUIRE(cudaEventSynchronize(untimed) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, untimed) == cudaErrorInvalidResourceHandle);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (cudaEvent_t event : {start, stop, untimed}) CHECK(cudaEventDestroy(event) == cudaSuccess);
  cudaStreamDestroy(producer);
  cudaStreamDestroy(consumer);
}

TEST_CASE("the duration model is deterministic and scales") {
  uint64_t small = simKernelDurationNs("gemm", dim3(1), dim3(256));
  CHECK(small == simKernelDurationNs("gemm", dim3(1), dim3(256)));
  CHECK(small >= 3000);
  CHECK(small < 60000);
  CHECK(simKernelDurationNs("gemm", dim3(100000), dim3(256)) > small);
  CHECK(simKernelDurationNs("gemm", dim3(1), dim3(256)) !=
        simKernelDurationNs("softmax", dim3(1), dim3(256)));
  size_t mb = 1 << 20;
  CHECK(simCopyDurationNs(mb, cudaMemcpyDeviceToDevice) <
        simCopyDurationNs(mb, cudaMemcpyHostToDevice));
  CHECK(simCopyDurationNs(2 * mb, cudaMemcpyHostToDevice) >
        simCopyDurationNs(mb, cudaMemcpyHostToDevice));
  CHECK(simMemsetDurationNs(mb) > simMemsetDurationNs(0));
  CHECK(simTimeScale() == 1.0);
}

TEST_CASE("device queries describe an H200-like device") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 8);
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.major == 9);
  CHECK(prop.multiProcessorCount == 132);
  CHECK(std::string(prop.name).find("H200") != std::string::npos);
  int value = 0;
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, 0) == cudaSuccess);
  CHECK(value == 1024);
  REQUIRE(cudaSetDevice(3) == cudaSuccess);
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  CHECK(device == 3);
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  int version = 0;
  REQUIRE(cudaRuntimeGetVersion(&version) == cudaSuccess);
  CHECK(version == 13000);
  REQUIRE(cudaDriverGetVersion(&version) == cudaSuccess);
  CHECK(version >= 13000);
}
