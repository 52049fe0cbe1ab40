// SIM_CUPTI_LATE_BUFFERS=1 holds buffers until a flush; SIM_CUPTI_PARTIAL_BUFFERS=1
// spreads records over many small buffers.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>
#include <cupti.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "testdata/sim/tests/cupti_test_util.h"

TEST_CASE("late and partial buffers") {
  setenv("SIM_CUPTI_LATE_BUFFERS", "1", 1);
  setenv("SIM_CUPTI_PARTIAL_BUFFERS", "1", 1);
  REQUIRE(cuptiActivityRegisterCallbacks(simtest::RequestBuffer, simtest::CompleteBuffer) ==
          CUPTI_SUCCESS);
  REQUIRE(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME) == CUPTI_SUCCESS);
  int device = 0;
  for (int i = 0; i < 10; ++i) REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  CHECK(simtest::CollectedCount() == 0);  // no periodic delivery
  REQUIRE(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
  CHECK(simtest::CollectedCount() == 10);
  std::lock_guard<std::mutex> lock(simtest::TheCollected().mutex);
  CHECK(simtest::TheCollected().records_per_buffer.size() == 4);
  for (size_t count : simtest::TheCollected().records_per_buffer) CHECK(count <= 3);
}
