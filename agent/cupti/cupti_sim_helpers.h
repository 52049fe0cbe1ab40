// What the sim-based CUPTI adapter tests share: the simulator's ground truth of the last
// enqueued item, and a launch made the way an interposed hook makes it.
//
// Thread safety: per calling thread (the simulator's truth is per thread).
#ifndef PROF_AGENT_CUPTI_CUPTI_SIM_HELPERS_H_
#define PROF_AGENT_CUPTI_CUPTI_SIM_HELPERS_H_

#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "agent/record/recorder.h"
#include "sim/sim_ext.h"

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

// Launches `function` like an interposed hook would: the hook clears the correlation id,
// calls the real function, and reads back what CUPTI's API-enter callback set.
inline uint64_t HookedLaunch(const void* function, dim3 grid, dim3 block, size_t shared,
                             cudaStream_t stream) {
  ClearCorrelationId();
  REQUIRE(cudaLaunchKernel(function, grid, block, nullptr, shared, stream) == cudaSuccess);
  return CurrentCorrelationId();
}

}  // namespace testing
}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_SIM_HELPERS_H_
