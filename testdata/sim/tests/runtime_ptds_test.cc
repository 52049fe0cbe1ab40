// Compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM: the calls below bind to the _ptds /
// _ptsz exports, whose NULL stream is the calling thread's own default stream.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>

#include <thread>

#include "sim/sim_ext.h"
#include "testdata/sim/tests/sim_test_util.h"

TEST_CASE("per-thread default streams are independent across threads") {
  const void* kernel = simRegisterKernel("ptdsKernel");
  REQUIRE(simLaunchNamedKernel("long", dim3(1), dim3(1), 0, cudaStreamPerThread, 5 * simtest::kMs,
                               0) == cudaSuccess);
  simtest::Interval mine = simtest::LastItem();
  simtest::Interval other;
  std::thread thread([&] {
    REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, 0) == cudaSuccess);
    other = simtest::LastItem();
  });
  thread.join();
  CHECK(other.start_ns < mine.end_ns);
  REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, 0) == cudaSuccess);
  CHECK(simtest::LastItem().start_ns >= mine.end_ns);
  int value = 5;
  int* device = nullptr;
  REQUIRE(cudaMalloc(&device, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(device, &value, sizeof(int), cudaMemcpyHostToDevice, 0) == cudaSuccess);
  REQUIRE(cudaMemset(device, 0, 2) == cudaSuccess);
  int back = 0;
  REQUIRE(cudaMemcpy(&back, device, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == 0);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(cudaStreamQuery(0) == cudaSuccess);
  cudaFree(device);
}
