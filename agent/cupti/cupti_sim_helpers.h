// What the sim-based CUPTI adapter tests share: the simulator's ground truth of the last
// enqueued item, a launch made the way an interposed hook makes it, and the simulated
// CUPTI's test-only entry points (looked up in the copy the adapter loaded).
//
// Thread safety: per calling thread (the simulator's truth is per thread).
#ifndef PROF_AGENT_CUPTI_CUPTI_SIM_HELPERS_H_
#define PROF_AGENT_CUPTI_CUPTI_SIM_HELPERS_H_

#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"
#include "sim/sim_ext.h"
#include "testdata/sim/cupti/sim_cupti_test_api.h"

namespace prof {
namespace testing {

// SIM_CUPTI_CLOCK_OFFSET_NS's default: CUPTI time minus CLOCK_MONOTONIC.
constexpr uint64_t kCuptiOffsetNs = 5000000000000ull;

struct Truth {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation_id = 0;
};

inline Truth LastItem() {
  Truth truth;
  REQUIRE(simLastEnqueuedItem(&truth.start_ns, &truth.end_ns, &truth.correlation_id) == 0);
  return truth;
}

// Launches `function` like an interposed hook would: the hook marks the correlation id awaited,
// calls the real function, and reads back what CUPTI's API-enter callback set.
inline uint64_t HookedLaunch(const void* function, dim3 grid, dim3 block, size_t shared,
                             cudaStream_t stream) {
  AwaitCorrelationId();
  REQUIRE(cudaLaunchKernel(function, grid, block, nullptr, shared, stream) == cudaSuccess);
  return TakeCorrelationId();
}

// Records the calling thread appended, drained (test thread = writer thread here).
inline std::vector<std::pair<std::string, Record>> DrainOwnRecords() {
  std::vector<std::pair<std::string, Record>> records;
  const uint64_t me = CurrentThreadId();
  ForEachBuffer([&](ThreadBuffer& buffer) {
    buffer.Drain([&](const Record& record) {
      if (buffer.thread_id() == me) records.emplace_back(record.name(), record);
    });
  });
  return records;
}

// The simulated CUPTI's test-only queries, resolved from the copy at `cupti_path` that the
// adapter already loaded (RTLD_NOLOAD: never a second copy).
struct SimCuptiTestApi {
  SimCuptiEnabledCallbackIdsFn enabled_ids = nullptr;
  SimCuptiDeliveredCallbacksFn delivered = nullptr;
  SimCuptiFakeApiCallFn fake_call = nullptr;

  // The callback ids of `domain` enabled now.
  std::set<uint32_t> Enabled(CUpti_CallbackDomain domain) const {
    uint32_t ids[2048];
    const size_t count = enabled_ids(domain, ids, 2048);
    REQUIRE(count <= 2048);
    return std::set<uint32_t>(ids, ids + count);
  }
};

inline SimCuptiTestApi LoadedSimCuptiTestApi(const std::string& cupti_path) {
  void* handle = dlopen(cupti_path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(handle != nullptr);
  SimCuptiTestApi api;
  api.enabled_ids = reinterpret_cast<SimCuptiEnabledCallbackIdsFn>(
      dlsym(handle, SIM_CUPTI_ENABLED_CALLBACK_IDS_SYMBOL));
  api.delivered = reinterpret_cast<SimCuptiDeliveredCallbacksFn>(
      dlsym(handle, SIM_CUPTI_DELIVERED_CALLBACKS_SYMBOL));
  api.fake_call =
      reinterpret_cast<SimCuptiFakeApiCallFn>(dlsym(handle, SIM_CUPTI_FAKE_API_CALL_SYMBOL));
  REQUIRE(api.enabled_ids);
  REQUIRE(api.delivered);
  REQUIRE(api.fake_call);
  dlclose(handle);  // drops only the reference RTLD_NOLOAD added
  return api;
}

}  // namespace testing
}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_SIM_HELPERS_H_
