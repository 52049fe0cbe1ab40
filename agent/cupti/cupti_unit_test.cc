// Pieces of the CUPTI adapter that need no CUPTI: a missing library, name and enum
// mapping, and the clock anchor without CUPTI.
#include <catch2/catch.hpp>

#include "agent/cupti/activity_mapping.h"
#include "agent/cupti/api_callbacks.h"
#include "agent/cupti/clock_anchor.h"
#include "agent/cupti/cupti_locator.h"
#include "agent/cupti/cupti_source.h"
#include "agent/cupti/cupti_test_support.h"

namespace prof {
namespace {

TEST_CASE("PROF_CUPTI_LIB naming a missing file is one warning") {
  auto source = MakeCuptiSource(testing::TestConfig("/nonexistent/libcupti.so.13"));
  REQUIRE(source);
  testing::StderrCapture capture;
  CHECK_FALSE(source->Enable());
  CHECK_FALSE(source->Enable());
  source->Flush(false);
  testing::OneWindowRouter router("missing");
  source->Drain(router);
  source->Disable();
  const std::string text = capture.Stop();
  CHECK(testing::CountLines(text, "libprof:") == 1);
  CHECK(testing::CountLines(text, "PROF_CUPTI_LIB=/nonexistent/libcupti.so.13") == 1);
  CHECK(source->Anchor("no cupti").cupti_ns == 0);
}

TEST_CASE("an explicit PROF_CUPTI_LIB is the only candidate") {
  const auto candidates = CuptiCandidates("/opt/x/libcupti.so");
  REQUIRE(candidates.size() == 1);
  CHECK(candidates[0].path == "/opt/x/libcupti.so");
  CHECK(CuptiCandidates("").size() >= 3);
}

TEST_CASE("CUPTI's versioned function names become callable names") {
  char buffer[64];
  CHECK(std::string(CallableName("cudaMemcpy", buffer, sizeof(buffer))) == "cudaMemcpy");
  CHECK(std::string(CallableName("cudaMemcpy_v3020", buffer, sizeof(buffer))) == "cudaMemcpy");
  CHECK(std::string(CallableName("cudaLaunchKernel_ptsz_v7000", buffer, sizeof(buffer))) ==
        "cudaLaunchKernel_ptsz");
  CHECK(std::string(CallableName("cuMemAlloc_v2", buffer, sizeof(buffer))) == "cuMemAlloc_v2");
  CHECK(CallableName(nullptr, buffer, sizeof(buffer)) == nullptr);
}

TEST_CASE("CUPTI enumerations map to the trace's") {
  CHECK(CopyKindOfCupti(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD) == schema::COPY_KIND_HOST_TO_DEVICE);
  CHECK(CopyKindOfCupti(CUPTI_ACTIVITY_MEMCPY_KIND_PTOP) == schema::COPY_KIND_PEER_TO_PEER);
  CHECK(CopyKindOfCupti(999) == schema::COPY_KIND_UNKNOWN);
  CHECK(MemoryKindOfCupti(CUPTI_ACTIVITY_MEMORY_KIND_PINNED) == schema::MEMORY_KIND_PINNED);
  CHECK(MemoryKindOfCupti(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC) == schema::MEMORY_KIND_DEVICE);
  CHECK(SynchronizationKindOfCupti(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE) ==
        schema::SYNCHRONIZATION_KIND_CONTEXT);
}

TEST_CASE("an anchor without CUPTI is still a host pair") {
  const ClockAnchorValue anchor = MeasureCuptiAnchor(nullptr, "host only");
  CHECK(anchor.cupti_ns == 0);
  CHECK(anchor.host_monotonic_ns != 0);
  CHECK(anchor.host_realtime_ns != 0);
  CHECK(anchor.reason == "host only");
  CHECK(CuptiMinusHostNs(anchor) == 0);
}

}  // namespace
}  // namespace prof
