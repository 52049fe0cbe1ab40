// The timeline exports carry what the agent recorded: launch configurations, occupancy,
// copy bandwidth, call arguments, NCCL arguments, allocation stacks and windows. Expected
// values are worked out by hand in timeline_test_trace.cc.
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/kernel_occupancy.h"
#include "analyzer/render/timeline_test_trace.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

KernelLaunch Launch(uint32_t threads, uint32_t registers, uint32_t shared) {
  KernelLaunch launch;
  launch.grid[0] = launch.grid[1] = launch.grid[2] = 1;
  launch.block[0] = threads;
  launch.block[1] = launch.block[2] = 1;
  launch.registers_per_thread = registers;
  launch.static_shared_memory = shared;
  return launch;
}

TEST_CASE("theoretical occupancy follows the occupancy calculator's limits (sm_90)") {
  // 8 warps, 32 registers: 1024 registers per warp, 64 warps fit -> 8 blocks, 64 warps.
  CHECK(*TheoreticalOccupancy(Launch(256, 32, 0)) == Approx(1.0));
  // 64 registers: 2048 per warp -> 32 warps -> 4 blocks of 8 warps: 50%.
  CHECK(*TheoreticalOccupancy(Launch(256, 64, 0)) == Approx(0.5));
  // 48 KiB + 1 KiB reserved = 50176 bytes per block; 233472 / 50176 -> 4 blocks: 50%.
  CHECK(*TheoreticalOccupancy(Launch(256, 0, 49152)) == Approx(0.5));
  // 32 threads: 1 warp per block, 32 blocks at most -> 32 of 64 warps.
  CHECK(*TheoreticalOccupancy(Launch(32, 0, 0)) == Approx(0.5));
  // 255 registers: 8160 -> 8192 per warp -> 8 warps -> 1 block of 8 warps: 12.5%.
  CHECK(*TheoreticalOccupancy(Launch(256, 255, 0)) == Approx(0.125));
  CHECK(!TheoreticalOccupancy(Launch(0, 32, 0)).has_value());
  CHECK(!TheoreticalOccupancy(Launch(2048, 32, 0)).has_value());
}

std::string ChromeJson(const std::string& trace_name) {
  const TraceModel model = testing::LoadOrDie(testing::WriteRecordedArgumentsTrace(trace_name));
  const std::optional<std::string> json = testing::ChromeJsonOf(model, trace_name + ".json");
  REQUIRE(json.has_value());
  return *json;
}

bool Has(const std::string& json, const std::string& text) {
  const bool found = json.find(text) != std::string::npos;
  if (!found) UNSCOPED_INFO("missing: " << text);
  return found;
}

TEST_CASE("Chrome export: kernels carry grid, block, registers, shared memory and occupancy") {
  const std::string json = ChromeJson("kernel_args.pb");
  CHECK(Has(json, "\"name\":\"gemm_kernel\""));
  CHECK(Has(json,
            "\"grid\":\"[4, 2, 1]\",\"block\":\"[256, 1, 1]\",\"registers per thread\":64,"
            "\"static shared memory\":512,\"dynamic shared memory\":0,\"theoretical occupancy "
            "%\":50.000"));
  CHECK(Has(json, "\"occupancy assumes\":\"sm_90 (H100)"));
}

TEST_CASE("Chrome export: copies carry bytes, kind and GB/s; API calls their arguments") {
  const std::string json = ChromeJson("copy_args.pb");
  CHECK(Has(json, "\"kind\":\"HtoD\",\"bytes\":1000000,\"GB/s\":100.000"));
  CHECK(Has(json, "\"name\":\"cudaMemcpyAsync\""));
  CHECK(
      Has(json,
          "\"correlation\":2,\"status\":0,\"stream\":\"0x7\",\"bytes\":1000000,\"kind\":\"HtoD\""));
  CHECK(Has(json, "\"call stack\":\"launch_gemm < main\""));
}

TEST_CASE("Chrome export: a launch call names its kernel, grid, block and shared memory") {
  // No kernel record (a run without CUPTI): the call's slice is all the timeline shows.
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.HostLaunch(1, 10, 20, "gemm_kernel", {7, 5, 3}, {32, 4, 2}, 1024);
  const TraceModel model = testing::LoadOrDie(trace.Write("host_launch.pb"));
  const std::optional<std::string> json = testing::ChromeJsonOf(model, "host_launch.json");
  REQUIRE(json.has_value());
  CHECK(Has(*json, "\"name\":\"cudaLaunchKernel\""));
  CHECK(Has(*json,
            "\"kernel\":\"gemm_kernel\",\"grid\":\"[7, 5, 3]\",\"block\":\"[32, 4, 2]\","
            "\"dynamic shared memory\":1024"));
}

TEST_CASE(
    "Chrome export: NCCL calls by their NCCL names with count, dtype, communicator and peer") {
  const std::string json = ChromeJson("nccl_args.pb");
  CHECK(json.find("NCCL_OPERATION_") == std::string::npos);
  CHECK(Has(json, "\"name\":\"ncclSend\""));
  CHECK(Has(json,
            "\"count\":256,\"dtype\":\"ncclFloat32\",\"bytes\":1024,\"peer rank\":3,"
            "\"communicator\":\"0xabc\",\"rank\":1,\"ranks\":4"));
  CHECK(Has(json, "\"name\":\"ncclAllReduce\""));
  CHECK(
      Has(json, "\"count\":10,\"dtype\":\"ncclBfloat16\",\"bytes\":20,\"reduction\":\"ncclSum\""));
}

TEST_CASE(
    "Chrome export: allocations carry their symbolized stacks; windows and steps are ranges") {
  const std::string json = ChromeJson("memory_args.pb");
  CHECK(Has(json, "\"ph\":\"i\",\"name\":\"allocate\""));
  CHECK(Has(json,
            "\"address\":\"0xd000\",\"bytes\":4096,\"device\":0,\"memory kind\":\"DEVICE\","
            "\"call stack\":\"at::native::empty_cuda < 0x4f0\""));
  CHECK(Has(json, "\"name\":\"window 2 (steps 5-6)\",\"cat\":\"window\""));
  CHECK(Has(json, "\"args\":{\"name\":\"recording windows\"}"));
  CHECK(Has(json, "\"name\":\"ProfileStep#5\",\"cat\":\"ProfileStep\""));
}

// The "bytes" of each counter event named `name`, in file order.
std::vector<uint64_t> CounterBytes(const std::string& json, const std::string& name) {
  std::vector<uint64_t> values;
  const std::string head = "\"ph\":\"C\",\"name\":\"" + name + "\"";
  for (size_t at = json.find(head); at != std::string::npos; at = json.find(head, at + 1)) {
    const size_t bytes = json.find("\"bytes\":", at);
    values.push_back(std::stoull(json.substr(bytes + 8)));
  }
  return values;
}

TEST_CASE("Chrome export: allocator samples and host RSS are counter tracks") {
  const std::string json = ChromeJson("sample_counters.pb");
  // timeline_test_trace.cc: GPU0 allocated 4096 then 0, reserved 2 MiB twice, RSS once.
  CHECK(CounterBytes(json, "GPU0 allocated") == std::vector<uint64_t>{4096, 0});
  CHECK(CounterBytes(json, "GPU0 reserved") == std::vector<uint64_t>{2097152, 2097152});
  CHECK(CounterBytes(json, "Host RSS") == std::vector<uint64_t>{123456789});
  // On the process (pid 4242), at the samples' times (origin 0: the step starts at 0).
  CHECK(Has(json,
            "\"ph\":\"C\",\"name\":\"GPU0 allocated\",\"cat\":\"memory\",\"pid\":4242,\"tid\":0,"
            "\"ts\":60.000"));
  CHECK(Has(json,
            "\"ph\":\"C\",\"name\":\"Host RSS\",\"cat\":\"memory\",\"pid\":4242,\"tid\":0,"
            "\"ts\":100.000"));
}

TEST_CASE("the export's time span covers every kind of event, so no timestamp is negative") {
  // Every event sets the span: memory records, allocator samples and NCCL calls too (before,
  // an allocation or a sample earlier than every range or call got a negative timestamp).
  TraceModel model;
  HostRange range;
  range.start_ns = 1000;
  range.end_ns = 2000;
  model.ranges.push_back(range);
  NcclCall nccl;
  nccl.start_ns = 400;
  nccl.end_ns = 900;
  model.nccl_calls.push_back(nccl);
  MemoryRecord allocation;
  allocation.time_ns = 500;
  model.memory.push_back(allocation);
  MemorySample sample;
  sample.time_ns = 300;
  model.memory_samples.push_back(sample);
  CHECK(EarliestTime(model) == 300);
  sample.time_ns = 2500;
  model.memory_samples.push_back(sample);
  CHECK(LatestTime(model) == 2500);
}

}  // namespace
}  // namespace prof::analyzer
