// Which CUPTI API callbacks the adapter turns on: exactly the ids it uses, never a whole
// domain. Checked through the simulated CUPTI's test-only queries (what the subscriber
// enabled, how many callbacks it was handed) and its fake API calls, which stand in for
// driver functions the simulated runtime never calls (cuLaunchKernelEx, cuGraphLaunch,
// cuPointerGetAttribute, ...). Expected ids are written out from CUPTI's headers here.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <cupti.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "agent/cupti/api_callbacks.h"
#include "agent/cupti/callback_ids.h"
#include "agent/cupti/cupti_sim_helpers.h"
#include "agent/cupti/cupti_source.h"
#include "agent/cupti/cupti_test_support.h"
#include "agent/record/api_ids.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"
#include "sim/sim_ext.h"

namespace prof {
namespace {

using testing::DrainOwnRecords;
using testing::LoadedSimCuptiTestApi;
using testing::SimCuptiPath;
using testing::SimCuptiTestApi;
using testing::TestConfig;

constexpr CUpti_CallbackDomain kRuntime = CUPTI_CB_DOMAIN_RUNTIME_API;
constexpr CUpti_CallbackDomain kDriver = CUPTI_CB_DOMAIN_DRIVER_API;

// Launches, copies, memsets, graph launches and waits: what must be seen.
const std::vector<uint32_t> kRuntimeNeeded = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
};
const std::vector<uint32_t> kDriverNeeded = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
};
// Frequent calls that enqueue nothing (allocator queries, NCCL proxy polling, context
// lookups): they must never pay a callback.
const std::vector<uint32_t> kRuntimeUnwanted = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000,
};
const std::vector<uint32_t> kDriverUnwanted = {
    CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice,        CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamQuery,         CUPTI_DRIVER_TRACE_CBID_cuEventQuery,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGet,
};

void CheckContains(const std::set<uint32_t>& enabled, const std::vector<uint32_t>& ids,
                   bool expected) {
  for (uint32_t id : ids) {
    INFO("callback id " << id);
    CHECK(enabled.count(id) == (expected ? 1u : 0u));
  }
}

TEST_CASE("the adapter enables the callback ids it uses, never a whole domain") {
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  const SimCuptiTestApi sim = LoadedSimCuptiTestApi(SimCuptiPath());
  const std::set<uint32_t> runtime = sim.Enabled(kRuntime);
  const std::set<uint32_t> driver = sim.Enabled(kDriver);
  CheckContains(runtime, kRuntimeNeeded, true);
  CheckContains(driver, kDriverNeeded, true);
  CheckContains(runtime, kRuntimeUnwanted, false);
  CheckContains(driver, kDriverUnwanted, false);
  // CUDA 13 has 500+ runtime and 800+ driver ids; the adapter wants a small fraction.
  CHECK(runtime.size() < 120);
  CHECK(driver.size() < 120);
  // Exactly the documented table, nothing else.
  size_t count = 0;
  const CallbackIdEntry* table = AgentCallbackIds(&count);
  std::set<uint32_t> table_runtime, table_driver;
  for (size_t i = 0; i < count; ++i) {
    (table[i].domain == kRuntime ? table_runtime : table_driver).insert(table[i].cbid);
  }
  CHECK(table_runtime.size() + table_driver.size() == count);  // no duplicates
  CHECK(runtime == table_runtime);
  CHECK(driver == table_driver);
  source->Disable();
  CHECK(sim.Enabled(kRuntime).empty());
  CHECK(sim.Enabled(kDriver).empty());
}

TEST_CASE("every interposed runtime function has its callback, marked as hooked") {
  size_t count = 0;
  const CallbackIdEntry* table = AgentCallbackIds(&count);
  for (uint16_t api = kApiNone + 1; api < kApiCount; ++api) {
    INFO(ApiName(api));
    int found = 0;
    for (size_t i = 0; i < count; ++i) {
      char buffer[128];
      const char* name = CallableName(table[i].name, buffer, sizeof(buffer));
      if (std::string(name) != ApiName(api)) continue;
      ++found;
      CHECK(table[i].domain == kRuntime);
      CHECK(table[i].purpose == CallbackPurpose::kHooked);
    }
    CHECK(found == 1);
  }
  for (size_t i = 0; i < count; ++i) {
    char buffer[128];
    const bool hooked =
        ApiIdByName(CallableName(table[i].name, buffer, sizeof(buffer))) != kApiNone;
    INFO(table[i].name);
    CHECK(hooked == (table[i].purpose == CallbackPurpose::kHooked));
  }
}

TEST_CASE("calls outside the set reach neither the callback nor the trace") {
  ConfigureBuffers(8u << 20);
  DrainOwnRecords();
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  const SimCuptiTestApi sim = LoadedSimCuptiTestApi(SimCuptiPath());
  SetRecording(true);
  const uint64_t delivered = sim.delivered();
  sim.fake_call(kDriver, CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, "cuPointerGetAttribute");
  sim.fake_call(kDriver, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, "cuCtxGetCurrent");
  sim.fake_call(kDriver, CUPTI_DRIVER_TRACE_CBID_cuStreamQuery, "cuStreamQuery");
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);  // the simulated runtime's own call
  const uint64_t delivered_after = sim.delivered();
  SetRecording(false);
  source->Disable();
  CHECK(delivered_after == delivered);
  CHECK(DrainOwnRecords().empty());
}

TEST_CASE("work enqueued without the hooks (driver launches, other copies) is recorded") {
  ConfigureBuffers(8u << 20);
  DrainOwnRecords();
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  const SimCuptiTestApi sim = LoadedSimCuptiTestApi(SimCuptiPath());
  SetRecording(true);
  // A real driver launch of the simulator (device work and all), like NCCL's.
  REQUIRE(simLaunchNamedKernel("nccl_like", dim3(1), dim3(32), 0, nullptr, 5000, 0) == cudaSuccess);
  const uint32_t driver_launch = testing::LastItem().correlation_id;
  const std::vector<std::pair<CUpti_CallbackDomain, std::pair<uint32_t, const char*>>> calls = {
      {kDriver, {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, "cuLaunchKernelEx"}},
      {kDriver, {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel"}},
      {kDriver, {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch"}},
      {kDriver, {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2"}},
      {kDriver, {CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, "cuMemsetD32Async"}},
      {kRuntime, {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020, "cudaMemcpy2DAsync_v3020"}},
  };
  std::vector<uint32_t> correlations;
  for (const auto& [domain, call] : calls) {
    correlations.push_back(sim.fake_call(domain, call.first, call.second));
  }
  SetRecording(false);
  source->Disable();

  const auto records = DrainOwnRecords();
  REQUIRE(records.size() == calls.size() + 1);
  CHECK(records[0].first == "cuLaunchKernel");
  CHECK(records[0].second.correlation_id == driver_launch);
  const char* expected_names[] = {"cuLaunchKernelEx", "cuLaunchCooperativeKernel",
                                  "cuGraphLaunch",    "cuMemcpyHtoDAsync_v2",
                                  "cuMemsetD32Async", "cudaMemcpy2DAsync"};
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& [name, record] = records[i + 1];
    INFO(name);
    CHECK(name == expected_names[i]);
    CHECK(record.kind == RecordKind::kApiCall);
    CHECK(record.api == kApiNone);
    CHECK(record.subkind == (calls[i].first == kDriver ? kApiSubkindDriver : kApiSubkindRuntime));
    CHECK(record.correlation_id == correlations[i]);
  }
}

}  // namespace
}  // namespace prof
