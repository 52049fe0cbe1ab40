// The one CUPTI subscription shared by libprof and the program's CUPTI client, against the
// simulated libcupti (linked, so the real calls are the simulator's): each party gets only
// the callbacks it enabled; the real ids enabled are their union; one party's unsubscribe
// leaves the other's; the last one unsubscribes CUPTI.
#include "agent/cupti/shared_subscription.h"

#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <cupti.h>

#include <algorithm>
#include <vector>

#include "testdata/sim/cupti/sim_cupti_test_api.h"

namespace prof {
namespace {

constexpr CUpti_CallbackDomain kRuntime = CUPTI_CB_DOMAIN_RUNTIME_API;
constexpr CUpti_CallbackId kLaunch = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
constexpr CUpti_CallbackId kMemcpy = CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020;
constexpr CUpti_CallbackId kMalloc = CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020;

struct Seen {
  std::vector<CUpti_CallbackId> ids;  // one per callback (enter and exit: two per call)
};

void CUPTIAPI Record(void* userdata, CUpti_CallbackDomain, CUpti_CallbackId cbid, const void*) {
  static_cast<Seen*>(userdata)->ids.push_back(cbid);
}

CallbackApi SimApi() {
  CallbackApi api;
  api.subscribe = &cuptiSubscribe;
  api.unsubscribe = &cuptiUnsubscribe;
  api.enable_callback = &cuptiEnableCallback;
  api.enable_domain = &cuptiEnableDomain;
  return api;
}

std::vector<uint32_t> RealIds() {
  uint32_t ids[4096];
  const size_t count = simCuptiEnabledCallbackIds(kRuntime, ids, 4096);
  return std::vector<uint32_t>(ids, ids + (count < 4096 ? count : 4096));
}

std::vector<uint32_t> Ids(std::vector<uint32_t> ids) {
  std::sort(ids.begin(), ids.end());  // as the simulator lists them
  return ids;
}

void Call(CUpti_CallbackId cbid) { simCuptiFakeApiCall(kRuntime, cbid, "call"); }

TEST_CASE("each party gets the callbacks it enabled, and only those") {
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);  // the simulated runtime is up
  Seen agent, program;
  CUpti_SubscriberHandle agent_handle = nullptr, program_handle = nullptr;
  REQUIRE(SharedSubscribe(Party::kAgent, SimApi(), &agent_handle, &Record, &agent) ==
          CUPTI_SUCCESS);
  REQUIRE(SharedSubscribe(Party::kProgram, SimApi(), &program_handle, &Record, &program) ==
          CUPTI_SUCCESS);
  CHECK(agent_handle != program_handle);
  CHECK(IsSharedHandle(Party::kProgram, program_handle));
  CHECK_FALSE(IsSharedHandle(Party::kProgram, agent_handle));
  // A second subscription of one party: CUPTI's own answer.
  CUpti_SubscriberHandle again = nullptr;
  CHECK(SharedSubscribe(Party::kProgram, SimApi(), &again, &Record, &program) ==
        CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);

  REQUIRE(SharedEnableCallback(Party::kAgent, 1, agent_handle, kRuntime, kLaunch) == CUPTI_SUCCESS);
  REQUIRE(SharedEnableCallback(Party::kProgram, 1, program_handle, kRuntime, kMemcpy) ==
          CUPTI_SUCCESS);
  // A handle of the other party is not this one's.
  CHECK(SharedEnableCallback(Party::kProgram, 1, agent_handle, kRuntime, kMalloc) ==
        CUPTI_ERROR_INVALID_PARAMETER);
  CHECK(RealIds() == Ids({kMemcpy, kLaunch}));
  Call(kLaunch);
  Call(kMemcpy);
  Call(kMalloc);
  CHECK(agent.ids == std::vector<CUpti_CallbackId>{kLaunch, kLaunch});
  CHECK(program.ids == std::vector<CUpti_CallbackId>{kMemcpy, kMemcpy});

  uint32_t state = 7;
  REQUIRE(SharedGetCallbackState(Party::kProgram, &state, program_handle, kRuntime, kLaunch) ==
          CUPTI_SUCCESS);
  CHECK(state == 0);  // the agent's id, not the program's
  REQUIRE(SharedGetCallbackState(Party::kProgram, &state, program_handle, kRuntime, kMemcpy) ==
          CUPTI_SUCCESS);
  CHECK(state == 1);

  // Both enable one id: each gets it once; one disabling it leaves it to the other.
  REQUIRE(SharedEnableCallback(Party::kProgram, 1, program_handle, kRuntime, kLaunch) ==
          CUPTI_SUCCESS);
  agent.ids.clear();
  program.ids.clear();
  Call(kLaunch);
  CHECK(agent.ids.size() == 2);
  CHECK(program.ids.size() == 2);
  REQUIRE(SharedEnableCallback(Party::kAgent, 0, agent_handle, kRuntime, kLaunch) == CUPTI_SUCCESS);
  Call(kLaunch);
  CHECK(agent.ids.size() == 2);
  CHECK(program.ids.size() == 4);
  CHECK(RealIds() == Ids({kMemcpy, kLaunch}));

  // The program unsubscribes: its ids go, the agent's stay, CUPTI stays subscribed.
  REQUIRE(SharedEnableCallback(Party::kAgent, 1, agent_handle, kRuntime, kMalloc) == CUPTI_SUCCESS);
  REQUIRE(SharedUnsubscribe(Party::kProgram, program_handle) == CUPTI_SUCCESS);
  CHECK(RealIds() == std::vector<uint32_t>{kMalloc});
  CHECK_FALSE(IsSharedHandle(Party::kProgram, nullptr));
  program.ids.clear();
  Call(kMemcpy);
  Call(kMalloc);
  CHECK(program.ids.empty());
  CHECK(agent.ids.size() == 4);
  // The last party unsubscribes CUPTI itself (the simulator then reports no ids at all).
  REQUIRE(SharedUnsubscribe(Party::kAgent, agent_handle) == CUPTI_SUCCESS);
  CHECK(RealIds().empty());
  CUpti_SubscriberHandle direct = nullptr;
  REQUIRE(cuptiSubscribe(&direct, &Record, &program) == CUPTI_SUCCESS);  // CUPTI is free
  REQUIRE(cuptiUnsubscribe(direct) == CUPTI_SUCCESS);
}

TEST_CASE("a domain enabled by the program, then disabled, leaves the agent's ids") {
  Seen agent, program;
  CUpti_SubscriberHandle agent_handle = nullptr, program_handle = nullptr;
  REQUIRE(SharedSubscribe(Party::kProgram, SimApi(), &program_handle, &Record, &program) ==
          CUPTI_SUCCESS);
  REQUIRE(SharedSubscribe(Party::kAgent, SimApi(), &agent_handle, &Record, &agent) ==
          CUPTI_SUCCESS);
  REQUIRE(SharedEnableCallback(Party::kAgent, 1, agent_handle, kRuntime, kLaunch) == CUPTI_SUCCESS);
  REQUIRE(SharedEnableDomain(Party::kProgram, 1, program_handle, kRuntime) == CUPTI_SUCCESS);
  Call(kMalloc);
  Call(kLaunch);
  CHECK(program.ids == std::vector<CUpti_CallbackId>{kMalloc, kMalloc, kLaunch, kLaunch});
  CHECK(agent.ids == std::vector<CUpti_CallbackId>{kLaunch, kLaunch});
  REQUIRE(SharedEnableDomain(Party::kProgram, 0, program_handle, kRuntime) == CUPTI_SUCCESS);
  CHECK(RealIds() == std::vector<uint32_t>{kLaunch});
  program.ids.clear();
  Call(kLaunch);
  CHECK(program.ids.empty());
  CHECK(agent.ids.size() == 4);
  // Every domain (cuptiEnableAllDomains) and back.
  REQUIRE(SharedEnableDomain(Party::kProgram, 1, program_handle, CUPTI_CB_DOMAIN_INVALID) ==
          CUPTI_SUCCESS);
  Call(kMemcpy);
  CHECK(program.ids.size() == 2);
  REQUIRE(SharedEnableDomain(Party::kProgram, 0, program_handle, CUPTI_CB_DOMAIN_INVALID) ==
          CUPTI_SUCCESS);
  CHECK(RealIds() == std::vector<uint32_t>{kLaunch});
  // The agent goes first this time: the program's subscription keeps CUPTI subscribed.
  REQUIRE(SharedUnsubscribe(Party::kAgent, agent_handle) == CUPTI_SUCCESS);
  CHECK(RealIds().empty());
  CUpti_SubscriberHandle direct = nullptr;
  CHECK(cuptiSubscribe(&direct, &Record, &program) ==
        CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  REQUIRE(SharedUnsubscribe(Party::kProgram, program_handle) == CUPTI_SUCCESS);
}

TEST_CASE("CUPTI refusing the real subscription is the party's answer") {
  CUpti_SubscriberHandle direct = nullptr;
  Seen other;
  REQUIRE(cuptiSubscribe(&direct, &Record, &other) == CUPTI_SUCCESS);  // another tool
  CUpti_SubscriberHandle handle = nullptr;
  CHECK(SharedSubscribe(Party::kAgent, SimApi(), &handle, &Record, &other) ==
        CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  CHECK(handle == nullptr);
  REQUIRE(cuptiUnsubscribe(direct) == CUPTI_SUCCESS);
  REQUIRE(SharedSubscribe(Party::kAgent, SimApi(), &handle, &Record, &other) == CUPTI_SUCCESS);
  REQUIRE(SharedUnsubscribe(Party::kAgent, handle) == CUPTI_SUCCESS);
}

}  // namespace
}  // namespace prof
