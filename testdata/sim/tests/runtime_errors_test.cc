// Bad arguments return the real runtime's error codes and set the last error.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>

#include <string>

#include "sim/sim_ext.h"

TEST_CASE("bad device ordinals") {
  cudaGetLastError();
  CHECK(cudaSetDevice(8) == cudaErrorInvalidDevice);
  CHECK(cudaSetDevice(-1) == cudaErrorInvalidDevice);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 99) == cudaErrorInvalidDevice);
  int value = 0;
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 42) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetDeviceCount(nullptr) == cudaErrorInvalidValue);
}

TEST_CASE("last error is recorded, peeked and reset") {
  cudaGetLastError();
  CHECK(cudaSetDevice(1000) == cudaErrorInvalidDevice);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);
  // A later success does not clear it.
  CHECK(cudaMalloc(nullptr, 16) == cudaErrorInvalidValue);
  int* pointer = nullptr;
  CHECK(cudaMalloc(&pointer, 16) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaFree(pointer);
}

TEST_CASE("error names and strings") {
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidValue)) == "cudaErrorInvalidValue");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidDevice)) == "invalid device ordinal");
  CHECK(std::string(cudaGetErrorString(cudaSuccess)) == "no error");
  CHECK(std::string(cudaGetErrorName(cudaErrorStreamCaptureInvalidated)) ==
        "cudaErrorStreamCaptureInvalidated");
  CHECK(std::string(cudaGetErrorString(static_cast<cudaError_t>(123456))) ==
        "unrecognized error code");
}

TEST_CASE("destroyed and unknown handles") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamSynchronize(stream) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamQuery(stream) == cudaErrorInvalidResourceHandle);
  const void* kernel = simRegisterKernel("k");
  CHECK(cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, stream) ==
        cudaErrorInvalidResourceHandle);
  int* device = nullptr;
  REQUIRE(cudaMalloc(&device, 64) == cudaSuccess);
  CHECK(cudaMemsetAsync(device, 0, 64, stream) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamDestroy(nullptr) == cudaErrorInvalidResourceHandle);

  cudaEvent_t event;
  REQUIRE(cudaEventCreate(&event) == cudaSuccess);
  REQUIRE(cudaEventDestroy(event) == cudaSuccess);
  CHECK(cudaEventRecord(event, nullptr) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventSynchronize(event) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventDestroy(event) == cudaErrorInvalidResourceHandle);
  cudaFree(device);
  cudaGetLastError();
}

TEST_CASE("launch errors") {
  static int not_a_kernel = 0;
  CHECK(cudaLaunchKernel(&not_a_kernel, dim3(1), dim3(1), nullptr, 0, nullptr) ==
        cudaErrorInvalidDeviceFunction);
  const void* kernel = simRegisterKernel("valid");
  CHECK(kernel == simRegisterKernel("valid"));
  CHECK(simRegisterKernel("") == nullptr);
  CHECK(cudaLaunchKernel(kernel, dim3(0), dim3(1), nullptr, 0, nullptr) ==
        cudaErrorInvalidConfiguration);
  CHECK(cudaLaunchKernel(kernel, dim3(1), dim3(2048), nullptr, 0, nullptr) ==
        cudaErrorInvalidConfiguration);
  CHECK(cudaLaunchKernelExC(nullptr, kernel, nullptr) == cudaErrorInvalidValue);
  CHECK(simLaunchNamedKernel(nullptr, dim3(1), dim3(1), 0, nullptr, 10, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);  // the ExC failure
  const char* name = nullptr;
  REQUIRE(cudaFuncGetName(&name, kernel) == cudaSuccess);
  CHECK(std::string(name) == "valid");
}

TEST_CASE("memory errors") {
  CHECK(cudaMalloc(nullptr, 8) == cudaErrorInvalidValue);
  int* device = nullptr;
  CHECK(cudaMalloc(&device, 0) == cudaSuccess);
  CHECK(device == nullptr);
  CHECK(cudaFree(nullptr) == cudaSuccess);
  int on_stack = 0;
  CHECK(cudaFree(&on_stack) == cudaErrorInvalidValue);
  REQUIRE(cudaMalloc(&device, 64) == cudaSuccess);
  CHECK(cudaFreeHost(device) == cudaErrorInvalidValue);  // wrong kind of allocation
  CHECK(cudaMemcpy(nullptr, device, 8, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(&on_stack, device, 4, static_cast<cudaMemcpyKind>(9)) ==
        cudaErrorInvalidMemcpyDirection);
  CHECK(cudaMemcpy(&on_stack, device, static_cast<size_t>(-4), cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemset(device, 0, 65) == cudaErrorInvalidValue);  // past the allocation
  CHECK(cudaMemset(nullptr, 0, 4) == cudaErrorInvalidValue);
  REQUIRE(cudaFree(device) == cudaSuccess);
  CHECK(cudaFree(device) == cudaErrorInvalidValue);  // double free
  cudaGetLastError();
}
