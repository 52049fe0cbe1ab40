// SIM_CUPTI_DROP_EVERY=N drops every N-th record and counts it.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>
#include <cupti.h>

#include <cstdlib>

#include "testdata/sim/tests/cupti_test_util.h"

TEST_CASE("dropped records are counted") {
  setenv("SIM_CUPTI_DROP_EVERY", "4", 1);  // read on first use, which comes below
  REQUIRE(cuptiActivityRegisterCallbacks(simtest::RequestBuffer, simtest::CompleteBuffer) ==
          CUPTI_SUCCESS);
  REQUIRE(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME) == CUPTI_SUCCESS);
  int device = 0;
  for (int i = 0; i < 40; ++i) REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME) == CUPTI_SUCCESS);
  REQUIRE(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
  size_t dropped = 0;
  REQUIRE(cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS);
  CHECK(dropped == 10);
  CHECK(simtest::CollectedCount() == 30);
  REQUIRE(cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS);
  CHECK(dropped == 0);  // reading resets the count
}
