// SIM_CUPTI_OTHER_SUBSCRIBER=1: another tool holds CUPTI's only subscription. Enable says
// so in one warning and returns false; nothing else breaks. This binary links the
// simulated libcupti, so the adapter also finds the copy already loaded (no PROF_CUPTI_LIB).
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cstdlib>

#include "agent/cupti/cupti_source.h"
#include "agent/cupti/cupti_test_support.h"

namespace prof {
namespace {

TEST_CASE("a busy CUPTI is one warning, and host tracing goes on") {
  setenv("SIM_CUPTI_OTHER_SUBSCRIBER", "1", 1);
  auto source = MakeCuptiSource(testing::TestConfig(""));
  testing::StderrCapture capture;
  const bool enabled = source->Enable();
  const std::string first = capture.Stop();
  CHECK_FALSE(enabled);
  CHECK(testing::CountLines(first, "libprof:") == 1);
  CHECK(testing::CountLines(first, "another tool") == 1);

  // Whatever the writer does next is harmless.
  testing::StderrCapture second_capture;
  CHECK_FALSE(source->Enable());  // a later window: no second warning
  source->Flush(true);
  testing::OneWindowRouter router("busy");
  source->Drain(router);
  const ClockAnchorValue anchor = source->Anchor("busy");
  source->Disable();
  CHECK(testing::CountLines(second_capture.Stop(), "libprof:") == 0);
  CHECK(anchor.cupti_ns == 0);
  CHECK(anchor.host_monotonic_ns != 0);
  int device = -1;
  CHECK(cudaGetDevice(&device) == cudaSuccess);
}

}  // namespace
}  // namespace prof
