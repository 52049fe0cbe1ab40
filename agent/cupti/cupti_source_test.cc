// The CUPTI adapter's device records against the simulated CUDA runtime and CUPTI: they
// end up in a real window file with the simulator's exact durations and correlation ids
// (the ids the hooks saw through the API-enter callback).
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "agent/cupti/cupti_sim_helpers.h"
#include "agent/cupti/cupti_source.h"
#include "agent/cupti/cupti_test_support.h"
#include "sim/sim_ext.h"

namespace prof {
namespace {

using testing::HookedLaunch;
using testing::kCuptiOffsetNs;
using testing::LastItem;
using testing::OneWindowRouter;
using testing::ReadTrace;
using testing::SimCuptiPath;
using testing::TestConfig;
using testing::TraceContents;
using testing::Truth;

constexpr size_t kCopyBytes = 1 << 20;

// What the first test enqueued, with the simulator's ground truth of each item.
struct Workload {
  cudaStream_t stream = nullptr;
  std::map<uint32_t, Truth> kernels;  // by correlation id
  std::map<uint32_t, std::string> kernel_names;
  Truth to_device, to_host, memset;
  uint64_t sync_correlation = 0;
  std::vector<char> host = std::vector<char>(kCopyBytes, 1);
  void* device = nullptr;
};

// 3 x kernel_alpha and 2 x kernel_beta, each checked against what the hook saw.
void LaunchKernels(Workload* work) {
  const void* alpha = simRegisterKernel("kernel_alpha");
  const void* beta = simRegisterKernel("kernel_beta");
  for (int i = 0; i < 5; ++i) {
    const bool is_alpha = i < 3;
    const uint64_t seen = is_alpha
                              ? HookedLaunch(alpha, dim3(4), dim3(128), 0, work->stream)
                              : HookedLaunch(beta, dim3(2, 2), dim3(64, 2), 1024, work->stream);
    const Truth truth = LastItem();
    CHECK(seen == truth.correlation_id);  // the hook sees the record's id
    work->kernels[truth.correlation_id] = truth;
    work->kernel_names[truth.correlation_id] = is_alpha ? "kernel_alpha" : "kernel_beta";
  }
}

void CopySetAndSync(Workload* work) {
  REQUIRE(cudaMalloc(&work->device, kCopyBytes) == cudaSuccess);
  REQUIRE(cudaMemcpy(work->device, work->host.data(), kCopyBytes, cudaMemcpyHostToDevice) ==
          cudaSuccess);
  work->to_device = LastItem();
  REQUIRE(cudaMemcpy(work->host.data(), work->device, 4096, cudaMemcpyDeviceToHost) == cudaSuccess);
  work->to_host = LastItem();
  REQUIRE(cudaMemsetAsync(work->device, 7, 65536, work->stream) == cudaSuccess);
  work->memset = LastItem();
  AwaitCorrelationId();
  REQUIRE(cudaStreamSynchronize(work->stream) == cudaSuccess);
  work->sync_correlation = TakeCorrelationId();
}

void CheckKernels(TraceContents& trace, Workload& work) {
  REQUIRE(trace.kernels.size() == 5);
  std::map<std::string, int> name_counts;
  for (const KernelEvent& kernel : trace.kernels) {
    INFO("kernel correlation id " << kernel.correlation_id);
    REQUIRE(work.kernels.count(kernel.correlation_id) == 1);
    const Truth& truth = work.kernels[kernel.correlation_id];
    const std::string name = trace.KernelName(kernel);
    ++name_counts[name];
    CHECK(name == work.kernel_names[kernel.correlation_id]);
    const KernelConfigValue config = trace.KernelConfig(kernel);
    const dim3 grid(config.grid[0], config.grid[1], config.grid[2]);
    const dim3 block(config.block[0], config.block[1], config.block[2]);
    CHECK(kernel.duration_ns == simKernelDurationNs(name.c_str(), grid, block));
    CHECK(kernel.duration_ns == truth.end_ns - truth.start_ns);
    CHECK(kernel.start_ns == truth.start_ns + kCuptiOffsetNs);  // raw CUPTI time
    CHECK(kernel.where.clock == schema::CLOCK_DOMAIN_CUPTI);
    CHECK(kernel.where.stream == simStreamId(work.stream));
    CHECK(config.registers_per_thread == 32);
    if (name == "kernel_beta") {
      CHECK(config.dynamic_shared_memory == 1024);
      CHECK((config.grid[0] == 2 && config.grid[1] == 2 && config.block[1] == 2));
    }
    CHECK_FALSE(kernel.graph_id.has_value());
  }
  CHECK(name_counts["kernel_alpha"] == 3);
  CHECK(name_counts["kernel_beta"] == 2);
}

void CheckCopies(const TraceContents& trace, const Workload& work) {
  REQUIRE(trace.memcpys.size() == 2);
  for (const MemcpyEvent& copy : trace.memcpys) {
    const bool up = copy.correlation_id == work.to_device.correlation_id;
    CHECK((up || copy.correlation_id == work.to_host.correlation_id));
    CHECK(copy.bytes == (up ? kCopyBytes : 4096u));
    CHECK(copy.copy_kind ==
          (up ? schema::COPY_KIND_HOST_TO_DEVICE : schema::COPY_KIND_DEVICE_TO_HOST));
    CHECK(copy.source_kind == (up ? schema::MEMORY_KIND_PAGEABLE : schema::MEMORY_KIND_DEVICE));
    CHECK(copy.destination_kind ==
          (up ? schema::MEMORY_KIND_DEVICE : schema::MEMORY_KIND_PAGEABLE));
    CHECK(copy.duration_ns ==
          simCopyDurationNs(copy.bytes, up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
    const Truth& truth = up ? work.to_device : work.to_host;
    CHECK(copy.duration_ns == truth.end_ns - truth.start_ns);
  }
}

void CheckMemsetAndSync(const TraceContents& trace, const Workload& work) {
  REQUIRE(trace.memsets.size() == 1);
  CHECK(trace.memsets[0].bytes == 65536);
  CHECK(trace.memsets[0].value == 7);
  CHECK(trace.memsets[0].correlation_id == work.memset.correlation_id);
  CHECK(trace.memsets[0].duration_ns == simMemsetDurationNs(65536));
  REQUIRE(trace.synchronizations.size() == 1);
  CHECK(trace.synchronizations[0].kind == schema::SYNCHRONIZATION_KIND_STREAM);
  CHECK(trace.synchronizations[0].correlation_id == work.sync_correlation);
  CHECK(trace.synchronizations[0].where.stream == simStreamId(work.stream));
}

TEST_CASE("kernels, copies, memsets and syncs reach the window file exactly") {
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source);
  REQUIRE(source->Enable());
  OneWindowRouter router("device_activity");
  Workload work;
  REQUIRE(cudaStreamCreate(&work.stream) == cudaSuccess);
  LaunchKernels(&work);
  CopySetAndSync(&work);
  source->Flush(true);
  source->Drain(router);
  const ClockAnchorValue anchor = source->Anchor("test");
  source->Disable();
  auto trace = ReadTrace(router.Finish());
  REQUIRE(trace->read_ok);
  CHECK(trace->malformed_blocks == 0);
  CheckKernels(*trace, work);
  CheckCopies(*trace, work);
  CheckMemsetAndSync(*trace, work);
  CHECK(trace->losses[schema::LOSS_KIND_CUPTI_DROPPED] == 0);
  // The anchor pairs the clocks with the simulator's offset (within its uncertainty), and
  // device times became host times with that offset when windows were picked.
  const int64_t measured_offset =
      static_cast<int64_t>(anchor.cupti_ns) - static_cast<int64_t>(anchor.host_monotonic_ns);
  CHECK(std::llabs(measured_offset - static_cast<int64_t>(kCuptiOffsetNs)) <=
        static_cast<int64_t>(anchor.uncertainty_ns + 1000));
  for (uint64_t host_time : router.host_times) {
    CHECK(host_time <= MonotonicNs());
    CHECK(host_time + 10000000000ull > MonotonicNs());
  }
  cudaFree(work.device);
  cudaStreamDestroy(work.stream);
}

TEST_CASE("work still running at a forced flush is counted, not written") {
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  OneWindowRouter router("in_flight");
  cudaStream_t quick = nullptr;
  cudaStream_t slow = nullptr;
  REQUIRE(cudaStreamCreate(&quick) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&slow) == cudaSuccess);
  // A finished kernel too: a window file holding nothing but losses is never written.
  REQUIRE(simLaunchNamedKernel("kernel_quick", dim3(1), dim3(32), 0, quick, 1000, 0) ==
          cudaSuccess);
  REQUIRE(cudaStreamSynchronize(quick) == cudaSuccess);
  REQUIRE(simLaunchNamedKernel("kernel_slow", dim3(1), dim3(32), 0, slow, 50000000, 0) ==
          cudaSuccess);  // 50 ms: still running when the window ends
  source->Flush(true);
  source->Drain(router);
  source->Disable();
  REQUIRE(cudaStreamSynchronize(slow) == cudaSuccess);
  auto trace = ReadTrace(router.Finish());
  REQUIRE(trace->read_ok);
  REQUIRE(trace->kernels.size() == 1);
  CHECK(trace->KernelName(trace->kernels[0]) == "kernel_quick");
  CHECK(trace->losses[schema::LOSS_KIND_CUPTI_DROPPED] == 1);
  cudaStreamDestroy(quick);
  cudaStreamDestroy(slow);
}

TEST_CASE("kernels replayed by a graph carry its launch's correlation id and graph ids") {
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  OneWindowRouter router("graph");
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  const void* node = simRegisterKernel("kernel_in_graph");
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  HookedLaunch(node, dim3(1), dim3(32), 0, stream);
  HookedLaunch(node, dim3(2), dim3(32), 0, stream);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  AwaitCorrelationId();
  REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
  const uint64_t launch_correlation = TakeCorrelationId();
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  source->Flush(true);
  source->Drain(router);
  source->Disable();
  auto trace = ReadTrace(router.Finish());
  REQUIRE(trace->read_ok);
  REQUIRE(trace->kernels.size() == 2);  // captured launches run only at replay
  for (const KernelEvent& kernel : trace->kernels) {
    CHECK(kernel.correlation_id == launch_correlation);
    CHECK(kernel.graph_id.has_value());
    CHECK(kernel.graph_node_id.has_value());
  }
  CHECK(trace->kernels[0].graph_node_id != trace->kernels[1].graph_node_id);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

}  // namespace
}  // namespace prof
