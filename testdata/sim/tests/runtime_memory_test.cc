// Copies and memsets really move bytes, in every direction and through every variant.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>

#include <numeric>
#include <vector>

#include "sim/sim_ext.h"

TEST_CASE("copies move data host -> device -> device -> host") {
  std::vector<int> input(1000);
  std::iota(input.begin(), input.end(), 7);
  std::vector<int> output(1000, 0);
  size_t bytes = input.size() * sizeof(int);
  int* a = nullptr;
  int* b = nullptr;
  REQUIRE(cudaMalloc(&a, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, bytes) == cudaSuccess);
  REQUIRE(cudaMemcpy(a, input.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(output.data(), b, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(output == input);
  cudaFree(a);
  cudaFree(b);
}

TEST_CASE("async copies, memsets and cudaMemcpyDefault") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  unsigned char* pinned = nullptr;
  unsigned char* device = nullptr;
  REQUIRE(cudaMallocHost(reinterpret_cast<void**>(&pinned), 256) == cudaSuccess);
  REQUIRE(cudaMallocAsync(reinterpret_cast<void**>(&device), 256, stream) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(device, 0xAB, 256, stream) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(pinned, device, 256, cudaMemcpyDefault, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(pinned[0] == 0xAB);
  CHECK(pinned[255] == 0xAB);
  REQUIRE(cudaMemset(device + 10, 0x01, 5) == cudaSuccess);
  REQUIRE(cudaMemcpy(pinned, device, 256, cudaMemcpyDefault) == cudaSuccess);
  CHECK(pinned[9] == 0xAB);
  CHECK(pinned[10] == 0x01);
  CHECK(pinned[14] == 0x01);
  CHECK(pinned[15] == 0xAB);
  REQUIRE(cudaFreeAsync(device, stream) == cudaSuccess);
  REQUIRE(cudaFreeHost(pinned) == cudaSuccess);
  void* host_alloc = nullptr;
  REQUIRE(cudaHostAlloc(&host_alloc, 64, cudaHostAllocPortable) == cudaSuccess);
  REQUIRE(cudaFreeHost(host_alloc) == cudaSuccess);
  cudaStreamDestroy(stream);
}

TEST_CASE("the copy duration follows the model") {
  std::vector<char> host(1 << 20);
  char* device = nullptr;
  REQUIRE(cudaMalloc(&device, host.size()) == cudaSuccess);
  REQUIRE(cudaMemcpy(device, host.data(), host.size(), cudaMemcpyHostToDevice) == cudaSuccess);
  uint64_t start = 0, end = 0;
  REQUIRE(simLastEnqueuedItem(&start, &end, nullptr) == 0);
  CHECK(end - start == simCopyDurationNs(host.size(), cudaMemcpyHostToDevice));
  cudaFree(device);
}
