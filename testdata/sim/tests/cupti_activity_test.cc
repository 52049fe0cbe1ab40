// CUPTI activity records: kinds, layouts, fields, correlation with API records, clocks,
// and delivery from the background thread.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>
#include <cupti.h>

#include <chrono>
#include <string>
#include <thread>

#include "sim/sim_ext.h"
#include "testdata/sim/tests/cupti_test_util.h"
#include "testdata/sim/tests/sim_test_util.h"

namespace {

constexpr uint64_t kDefaultClockOffsetNs = 5000000000000ull;

void EnableAll() {
  REQUIRE(cuptiActivityRegisterCallbacks(simtest::RequestBuffer, simtest::CompleteBuffer) ==
          CUPTI_SUCCESS);
  for (CUpti_ActivityKind kind :
       {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
        CUPTI_ACTIVITY_KIND_SYNCHRONIZATION}) {
    REQUIRE(cuptiActivityEnable(kind) == CUPTI_SUCCESS);
  }
}

const CUpti_ActivityAPI* FindApi(const std::vector<CUpti_ActivityAPI>& apis, uint32_t correlation) {
  for (const auto& api : apis) {
    if (api.correlationId == correlation) return &api;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("kernel, memcpy, memset, sync and API records match the runtime's work") {
  EnableAll();
  simtest::ClearCollected();
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  const void* kernel = simRegisterKernel("_Z6matmulPfS_");
  REQUIRE(cudaLaunchKernel(kernel, dim3(8, 2), dim3(128), nullptr, 64, stream) == cudaSuccess);
  simtest::Interval launch = simtest::LastItem();
  std::vector<char> host(4096, 1);
  char* device = nullptr;
  REQUIRE(cudaMalloc(&device, host.size()) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(device, host.data(), host.size(), cudaMemcpyHostToDevice, stream) ==
          cudaSuccess);
  simtest::Interval copy = simtest::LastItem();
  REQUIRE(cudaMemsetAsync(device, 3, 100, stream) == cudaSuccess);
  simtest::Interval memset = simtest::LastItem();
  REQUIRE(simLaunchNamedKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", dim3(4), dim3(512), 0,
                               stream, 2000, 0) == cudaSuccess);
  simtest::Interval nccl = simtest::LastItem();
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);

  auto kernels =
      simtest::RecordsOfKind<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  auto runtime = simtest::RecordsOfKind<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
  auto driver = simtest::RecordsOfKind<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_DRIVER);
  REQUIRE(kernels.size() == 2);
  const CUpti_ActivityKernel10& k = kernels[0];
  CHECK(std::string(k.name) == "_Z6matmulPfS_");
  CHECK(k.gridX == 8);
  CHECK(k.gridY == 2);
  CHECK(k.blockX == 128);
  CHECK(k.dynamicSharedMemory == 64);
  CHECK(k.streamId == simStreamId(stream));
  CHECK(k.deviceId == 0);
  CHECK(k.contextId == 1);
  CHECK(k.correlationId == launch.correlation_id);
  CHECK(k.start == launch.start_ns + kDefaultClockOffsetNs);
  CHECK(k.end == launch.end_ns + kDefaultClockOffsetNs);
  const CUpti_ActivityAPI* launch_api = FindApi(runtime, k.correlationId);
  REQUIRE(launch_api != nullptr);
  CHECK(launch_api->cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  CHECK(launch_api->start <= k.start);

  // The library-internal launch: a driver record, no runtime record.
  CHECK(std::string(kernels[1].name) == "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  CHECK(kernels[1].correlationId == nccl.correlation_id);
  CHECK(kernels[1].end - kernels[1].start == 2000);
  CHECK(FindApi(runtime, nccl.correlation_id) == nullptr);
  const CUpti_ActivityAPI* driver_api = FindApi(driver, nccl.correlation_id);
  REQUIRE(driver_api != nullptr);
  CHECK(driver_api->cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);

  auto copies = simtest::RecordsOfKind<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].bytes == host.size());
  CHECK(copies[0].copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
  CHECK(copies[0].srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
  CHECK(copies[0].dstKind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
  CHECK((copies[0].flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0);
  CHECK(copies[0].correlationId == copy.correlation_id);
  CHECK(copies[0].runtimeCorrelationId == copy.correlation_id);
  CHECK(copies[0].start == copy.start_ns + kDefaultClockOffsetNs);
  CHECK(FindApi(runtime, copy.correlation_id)->cbid ==
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020);

  auto memsets = simtest::RecordsOfKind<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  REQUIRE(memsets.size() == 1);
  CHECK(memsets[0].bytes == 100);
  CHECK(memsets[0].value == 3);
  CHECK(memsets[0].correlationId == memset.correlation_id);
  CHECK(memsets[0].memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);

  auto syncs =
      simtest::RecordsOfKind<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  REQUIRE(syncs.size() == 1);
  CHECK(syncs[0].type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE);
  CHECK(syncs[0].streamId == simStreamId(stream));
  CHECK(syncs[0].end >= nccl.end_ns + kDefaultClockOffsetNs);
  CHECK(FindApi(runtime, syncs[0].correlationId)->cbid ==
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020);
  cudaFree(device);
  cudaStreamDestroy(stream);
}

TEST_CASE("CUPTI's clock is the monotonic clock plus a fixed offset") {
  uint64_t before = simNowNs();
  uint64_t cupti_now = 0;
  REQUIRE(cuptiGetTimestamp(&cupti_now) == CUPTI_SUCCESS);
  uint64_t after = simNowNs();
  CHECK(cupti_now >= before + kDefaultClockOffsetNs);
  CHECK(cupti_now <= after + kDefaultClockOffsetNs);
  uint32_t version = 0;
  REQUIRE(cuptiGetVersion(&version) == CUPTI_SUCCESS);
  CHECK(version == CUPTI_API_VERSION);
}

TEST_CASE("unfinished device work is withheld until it completes") {
  EnableAll();
  simtest::ClearCollected();
  cudaStream_t stream;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  simtest::LaunchFor(stream, 30 * simtest::kMs, "slowKernel");
  REQUIRE(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
  CHECK(simtest::RecordsOfKind<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            .empty());
  // Delivered by the background thread once complete, without another flush.
  std::this_thread::sleep_for(std::chrono::milliseconds(90));
  auto kernels =
      simtest::RecordsOfKind<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  REQUIRE(kernels.size() == 1);
  CHECK(std::string(kernels[0].name) == "slowKernel");
  {
    std::lock_guard<std::mutex> lock(simtest::TheCollected().mutex);
    CHECK(simtest::TheCollected().delivering_threads.back() != std::this_thread::get_id());
  }
  // A forced flush hands out in-flight work with unknown timestamps.
  simtest::ClearCollected();
  simtest::LaunchFor(stream, 30 * simtest::kMs, "inFlight");
  REQUIRE(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
  kernels = simtest::RecordsOfKind<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].start == CUPTI_TIMESTAMP_UNKNOWN);
  CHECK(kernels[0].end == CUPTI_TIMESTAMP_UNKNOWN);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
}

TEST_CASE("graph replays carry the launch's correlation id and graph ids") {
  EnableAll();
  cudaStream_t stream;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  const void* kernel = simRegisterKernel("graphNode");
  REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, stream) == cudaSuccess);
  REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, stream) == cudaSuccess);
  cudaGraph_t graph;
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
  simtest::ClearCollected();
  REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
  auto kernels =
      simtest::RecordsOfKind<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  auto runtime = simtest::RecordsOfKind<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].correlationId == kernels[1].correlationId);
  CHECK(kernels[0].graphId != 0);
  CHECK(kernels[0].graphNodeId != kernels[1].graphNodeId);
  CHECK(kernels[1].start >= kernels[0].end);
  const CUpti_ActivityAPI* api = FindApi(runtime, kernels[0].correlationId);
  REQUIRE(api != nullptr);
  CHECK(api->cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

TEST_CASE("legacy and unknown kinds") {
  CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_METRIC) ==
        CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED);
  CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_NAME) == CUPTI_SUCCESS);
  CHECK(cuptiActivityEnable(static_cast<CUpti_ActivityKind>(9999)) == CUPTI_ERROR_INVALID_KIND);
  size_t value = 8 << 20;
  size_t value_size = sizeof(value);
  CHECK(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &value_size, &value) ==
        CUPTI_SUCCESS);
  size_t read = 0;
  CHECK(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &value_size, &read) ==
        CUPTI_SUCCESS);
  CHECK(read == value);
  uint32_t stream_id = 0;
  CHECK(cuptiGetStreamIdEx(nullptr, nullptr, 0, &stream_id) == CUPTI_SUCCESS);
  CHECK(stream_id == simStreamId(nullptr));
}
