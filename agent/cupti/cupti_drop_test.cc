// SIM_CUPTI_DROP_EVERY=N: the records CUPTI drops show up as LOSS_KIND_CUPTI_DROPPED in
// the window, exactly as many as CUPTI counted.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cstdlib>

#include "agent/cupti/cupti_source.h"
#include "agent/cupti/cupti_test_support.h"
#include "sim/sim_ext.h"

namespace prof {
namespace {

TEST_CASE("records CUPTI dropped are counted in the newest window") {
  setenv("SIM_CUPTI_DROP_EVERY", "4", 1);  // read when the simulated CUPTI is first used
  Config config = testing::TestConfig(testing::SimCuptiPath());
  config.activities = kActivityKernel | kActivityCudaApi;  // only kernel records are made
  auto source = MakeCuptiSource(config);
  REQUIRE(source->Enable());
  testing::OneWindowRouter router("drops");
  const void* kernel = simRegisterKernel("kernel_dropped_sometimes");
  constexpr int kLaunches = 10;
  for (int i = 0; i < kLaunches; ++i) {
    REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, nullptr) == cudaSuccess);
    if (i == 4) {  // drops read in two drains add up
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
      source->Flush(true);
      source->Drain(router);
    }
  }
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  source->Flush(true);
  source->Drain(router);
  source->Disable();
  auto trace = testing::ReadTrace(router.Finish());
  REQUIRE(trace->read_ok);
  constexpr uint64_t kDropped = kLaunches / 4;  // the 4th and 8th records
  CHECK(trace->losses[schema::LOSS_KIND_CUPTI_DROPPED] == kDropped);
  CHECK(trace->kernels.size() == kLaunches - kDropped);
}

}  // namespace
}  // namespace prof
