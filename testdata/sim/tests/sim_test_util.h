// Small helpers shared by the simulator's tests.
#ifndef PROF_TESTDATA_SIM_TESTS_SIM_TEST_UTIL_H_
#define PROF_TESTDATA_SIM_TESTS_SIM_TEST_UTIL_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sim/sim_ext.h"

namespace simtest {

struct Interval {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation_id = 0;
};

// The interval of the item the calling thread enqueued last.
inline Interval LastItem() {
  Interval interval;
  simLastEnqueuedItem(&interval.start_ns, &interval.end_ns, &interval.correlation_id);
  return interval;
}

// Enqueues a kernel of an exact duration and returns its interval.
inline Interval LaunchFor(cudaStream_t stream, uint64_t duration_ns, const char* name = "k") {
  simLaunchNamedKernel(name, dim3(1), dim3(32), 0, stream, duration_ns, 0);
  return LastItem();
}

constexpr uint64_t kMs = 1000000ull;

}  // namespace simtest

#endif  // PROF_TESTDATA_SIM_TESTS_SIM_TEST_UTIL_H_
