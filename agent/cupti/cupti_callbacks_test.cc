// The CUPTI adapter's API callbacks and process life against the simulated CUDA runtime
// and CUPTI: calls the hooks cannot see (and that enqueue work) are recorded, re-enabling starts
// clean, and a forked child never touches the parent's CUPTI.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

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
using testing::HookedLaunch;
using testing::LastItem;
using testing::LoadedSimCuptiTestApi;
using testing::OneWindowRouter;
using testing::ReadTrace;
using testing::SimCuptiPath;
using testing::SimCuptiTestApi;
using testing::TestConfig;

TEST_CASE("calls the hooks cannot see are recorded from the API callbacks") {
  ConfigureBuffers(8u << 20);
  DrainOwnRecords();
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  const SimCuptiTestApi sim = LoadedSimCuptiTestApi(SimCuptiPath());
  const void* gamma = simRegisterKernel("kernel_gamma");
  sim.fake_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
                "cudaMemcpy2DAsync_v3020");  // not recording yet: nothing
  SetRecording(true);
  const uint64_t before = MonotonicNs();
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);  // enqueues nothing: no callback at all
  const uint32_t copy_correlation =                // not interposed, enqueues a copy: recorded here
      sim.fake_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
                    "cudaMemcpy2DAsync_v3020");
  HookedLaunch(gamma, dim3(1), dim3(32), 0, nullptr);  // interposed: the hook's job
  REQUIRE(simLaunchNamedKernel("nccl_like", dim3(1), dim3(32), 0, nullptr, 5000, 0) ==
          cudaSuccess);  // a driver launch outside any runtime call
  const uint32_t driver_correlation = LastItem().correlation_id;
  const uint64_t driver_seen = CurrentCorrelationId();
  SetRecording(false);
  const uint64_t after = MonotonicNs();
  source->Flush(true);
  source->Disable();

  const auto records = DrainOwnRecords();
  REQUIRE(records.size() == 2);
  CHECK(records[0].first == "cudaMemcpy2DAsync");
  CHECK(records[0].second.subkind == kApiSubkindRuntime);
  CHECK(records[0].second.correlation_id == copy_correlation);
  CHECK(records[1].first == "cuLaunchKernel");
  CHECK(records[1].second.subkind == kApiSubkindDriver);
  CHECK(records[1].second.correlation_id == driver_correlation);
  CHECK(driver_seen == driver_correlation);
  for (const auto& [name, record] : records) {
    CHECK(record.kind == RecordKind::kApiCall);
    CHECK(record.api == kApiNone);
    CHECK(record.status == 0);
    CHECK(record.correlation_id != 0);
    CHECK(before <= record.start_ns);
    CHECK(record.start_ns <= record.end_ns);
    CHECK(record.end_ns <= after);
  }
}

TEST_CASE("Enable after Disable records again, without the previous window's leftovers") {
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  const void* delta = simRegisterKernel("kernel_delta");
  for (int round = 0; round < 2; ++round) {
    REQUIRE(source->Enable());
    OneWindowRouter router("round_" + std::to_string(round));
    HookedLaunch(delta, dim3(1), dim3(32), 0, nullptr);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    source->Flush(true);
    source->Drain(router);
    source->Disable();
    HookedLaunch(delta, dim3(1), dim3(32), 0, nullptr);  // after Disable: not recorded
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto trace = ReadTrace(router.Finish());
    REQUIRE(trace->read_ok);
    CHECK(trace->kernels.size() == 1);
    CHECK(trace->synchronizations.size() == 1);
  }
}

TEST_CASE("a forked child never uses the parent's CUPTI") {
  auto source = MakeCuptiSource(TestConfig(SimCuptiPath()));
  REQUIRE(source->Enable());
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The agent makes a fresh source in the child: it must refuse, not hang, not crash.
    auto child_source = MakeCuptiSource(TestConfig(SimCuptiPath()));
    const bool enabled = child_source->Enable();
    child_source->Flush(true);
    OneWindowRouter router("child");
    child_source->Drain(router);
    int device = -1;
    const bool cuda_works = cudaGetDevice(&device) == cudaSuccess;  // callbacks do nothing
    _exit(!enabled && cuda_works ? 0 : 1);
  }
  int status = -1;
  for (int waited_ms = 0; waited_ms < 10000; waited_ms += 10) {
    if (waitpid(child, &status, WNOHANG) == child) break;
    usleep(10000);
  }
  if (!WIFEXITED(status)) kill(child, SIGKILL);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The parent goes on recording.
  OneWindowRouter router("parent_after_fork");
  HookedLaunch(simRegisterKernel("kernel_after_fork"), dim3(1), dim3(32), 0, nullptr);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  source->Flush(true);
  source->Drain(router);
  source->Disable();
  CHECK(ReadTrace(router.Finish())->kernels.size() == 1);
}

}  // namespace
}  // namespace prof
