// The Callback API: one subscriber, enter/exit callbacks with names, parameters and
// correlation ids that match the activity records.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>
#include <cupti.h>

#include <string>
#include <vector>

#include "sim/sim_ext.h"
#include "testdata/sim/cupti/sim_cupti_test_api.h"
#include "testdata/sim/tests/cupti_test_util.h"

namespace {

struct Seen {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  CUpti_ApiCallbackSite site;
  std::string function;
  std::string symbol;
  uint32_t correlation_id;
  uint64_t correlation_data;
  unsigned grid_x;  // from cudaLaunchKernel's params
};

std::vector<Seen> seen;

void CUPTIAPI OnCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const void* data) {
  CHECK(userdata == &seen);
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  Seen entry{domain,
             cbid,
             info->callbackSite,
             info->functionName,
             info->symbolName != nullptr ? info->symbolName : "",
             info->correlationId,
             0,
             0};
  if (info->callbackSite == CUPTI_API_ENTER) *info->correlationData = 1000 + info->correlationId;
  entry.correlation_data = *info->correlationData;
  if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 && info->functionParams != nullptr) {
    entry.grid_x =
        static_cast<const cudaLaunchKernel_v7000_params*>(info->functionParams)->gridDim.x;
  }
  seen.push_back(entry);
}

}  // namespace

TEST_CASE("a second subscriber is refused") {
  CUpti_SubscriberHandle first, second;
  REQUIRE(cuptiSubscribe(&first, OnCallback, &seen) == CUPTI_SUCCESS);
  CHECK(cuptiSubscribe(&second, OnCallback, &seen) ==
        CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  REQUIRE(cuptiUnsubscribe(first) == CUPTI_SUCCESS);
  REQUIRE(cuptiSubscribe(&second, OnCallback, &seen) == CUPTI_SUCCESS);
  REQUIRE(cuptiUnsubscribe(second) == CUPTI_SUCCESS);
}

TEST_CASE("runtime and driver callbacks fire at enter and exit") {
  CUpti_SubscriberHandle subscriber;
  REQUIRE(cuptiSubscribe(&subscriber, OnCallback, &seen) == CUPTI_SUCCESS);
  REQUIRE(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS);
  REQUIRE(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) == CUPTI_SUCCESS);
  REQUIRE(cuptiActivityRegisterCallbacks(simtest::RequestBuffer, simtest::CompleteBuffer) ==
          CUPTI_SUCCESS);
  REQUIRE(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
  seen.clear();

  const void* kernel = simRegisterKernel("callbackKernel");
  REQUIRE(cudaLaunchKernel(kernel, dim3(6), dim3(32), nullptr, 0, nullptr) == cudaSuccess);
  REQUIRE(simLaunchNamedKernel("ncclDevKernel_SendRecv", dim3(1), dim3(64), 0, nullptr, 500, 0) ==
          cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

  REQUIRE(seen.size() == 6);  // launch, cuLaunchKernel, cudaDeviceSynchronize: enter + exit
  CHECK(seen[0].site == CUPTI_API_ENTER);
  CHECK(seen[1].site == CUPTI_API_EXIT);
  CHECK(seen[0].function == "cudaLaunchKernel");
  CHECK(seen[0].symbol == "callbackKernel");
  CHECK(seen[0].grid_x == 6);
  CHECK(seen[0].correlation_id == seen[1].correlation_id);
  CHECK(seen[1].correlation_data == 1000 + seen[0].correlation_id);  // the slot persists
  CHECK(seen[2].domain == CUPTI_CB_DOMAIN_DRIVER_API);
  CHECK(seen[2].function == "cuLaunchKernel");
  CHECK(seen[2].symbol == "ncclDevKernel_SendRecv");
  CHECK(seen[4].cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020);

  REQUIRE(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
  auto kernels =
      simtest::RecordsOfKind<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].correlationId == seen[0].correlation_id);
  CHECK(kernels[1].correlationId == seen[2].correlation_id);

  // Disabled callbacks stay quiet.
  REQUIRE(cuptiEnableDomain(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS);
  seen.clear();
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  CHECK(seen.empty());
  REQUIRE(cuptiUnsubscribe(subscriber) == CUPTI_SUCCESS);
}

TEST_CASE("callbacks are enabled per id; the test-only query lists exactly those") {
  CUpti_SubscriberHandle subscriber;
  REQUIRE(cuptiSubscribe(&subscriber, OnCallback, &seen) == CUPTI_SUCCESS);
  CHECK(simCuptiEnabledCallbackIds(CUPTI_CB_DOMAIN_DRIVER_API, nullptr, 0) == 0);
  REQUIRE(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx) == CUPTI_SUCCESS);
  REQUIRE(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) == CUPTI_SUCCESS);
  REQUIRE(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                              CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020) == CUPTI_SUCCESS);
  uint32_t ids[8] = {};
  REQUIRE(simCuptiEnabledCallbackIds(CUPTI_CB_DOMAIN_DRIVER_API, ids, 8) == 2);
  CHECK(ids[0] == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);  // ascending
  CHECK(ids[1] == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx);
  REQUIRE(simCuptiEnabledCallbackIds(CUPTI_CB_DOMAIN_RUNTIME_API, ids, 8) == 1);
  CHECK(ids[0] == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020);

  // A fake call reaches the subscriber only for an enabled id.
  seen.clear();
  const uint64_t delivered = simCuptiDeliveredCallbacks();
  const uint32_t launch = simCuptiFakeApiCall(
      CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, "cuLaunchKernelEx");
  simCuptiFakeApiCall(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute,
                      "cuPointerGetAttribute");
  REQUIRE(seen.size() == 2);
  CHECK(simCuptiDeliveredCallbacks() - delivered == 2);
  CHECK(seen[0].function == "cuLaunchKernelEx");
  CHECK(seen[0].site == CUPTI_API_ENTER);
  CHECK(seen[1].site == CUPTI_API_EXIT);
  CHECK(seen[0].correlation_id == launch);
  CHECK(launch >= 0x40000000u);

  REQUIRE(cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) == CUPTI_SUCCESS);
  CHECK(simCuptiEnabledCallbackIds(CUPTI_CB_DOMAIN_DRIVER_API, ids, 8) == 1);
  // Unsubscribing disables everything.
  REQUIRE(cuptiUnsubscribe(subscriber) == CUPTI_SUCCESS);
  CHECK(simCuptiEnabledCallbackIds(CUPTI_CB_DOMAIN_DRIVER_API, ids, 8) == 0);
  CHECK(simCuptiEnabledCallbackIds(CUPTI_CB_DOMAIN_RUNTIME_API, ids, 8) == 0);
}
