// The Overview's kernel row is the union of the Device Summary's per-device unions
// (device_unions.h): kernels overlapping across devices count once in its time. Expected
// values are the hand-made trace's intervals, summed by hand.
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

double Cell(const ProcessReport& report, const std::string& table, const std::string& row,
            int column) {
  const SummaryTable* found = testing::FindTable(report, table);
  REQUIRE(found != nullptr);
  const Row* at = testing::FindRow(*found, row);
  REQUIRE(at != nullptr);
  return at->cells[column].value;
}

TEST_CASE("device and overview: kernels of two devices, one past the step, and copies") {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.Kernel("a", 0, 7, 100, 300, 900001);
  trace.Kernel("b", 0, 8, 200, 400, 900002);
  trace.Kernel("c", 1, 7, 250, 500, 900003);
  trace.Kernel("d", 1, 7, 900, 1100, 900004);  // runs past the step: clipped at 1000
  trace.Memcpy(0, 9, 600, 700, 64, schema::COPY_KIND_HOST_TO_DEVICE, 900005);
  trace.Memset(1, 9, 650, 750, 900006);
  const ProcessReport report = testing::Analyze(trace.Write("two_devices.pb"));
  CHECK(Cell(report, "device", "GPU0", 1) == Approx(0.3));   // [100,400)
  CHECK(Cell(report, "device", "GPU1", 1) == Approx(0.35));  // [250,500) + [900,1000)
  // Across devices [100,500) and [900,1000): 400 + 100 of T = 1000.
  CHECK(Cell(report, "overview", "Kernel", 1) == 4);
  CHECK(Cell(report, "overview", "Kernel", 2) == 500);
  CHECK(Cell(report, "overview", "Kernel", 3) == Approx(0.5));
  CHECK(Cell(report, "overview", "Memcpy", 1) == 1);
  CHECK(Cell(report, "overview", "Memcpy", 2) == 100);
  CHECK(Cell(report, "overview", "Memset", 2) == 100);
}

// Two windows of one process, each one step; `a` and `b` write their kernels.
ProcessReport TwoWindows(testing::TestTrace* a, testing::TestTrace* b, const std::string& name) {
  a->Step(1, 0, 1000, 1);
  b->Step(1, 1000, 2000, 2);
  ProcessAnalysis analysis(SummaryOptions(), AllViews());
  analysis.AddWindow(testing::LoadOrDie(a->Write(name + "_a.pb")));
  analysis.AddWindow(testing::LoadOrDie(b->Write(name + "_b.pb")));
  return std::move(analysis).Finish();
}

// The computation union of a window without NCCL kernels is the device unions' kernel
// union; what runs past that window's end must still reach the next window's own union.
TEST_CASE("distribution: computation carried from a window without NCCL kernels") {
  testing::TestTrace a, b;
  a.Kernel("gemm", 0, 7, 900, 1500, 900001);  // [1000, 1500) carried on
  b.Kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 0, 8, 1200, 1300, 900002);
  b.Kernel("add", 0, 7, 1600, 1700, 900003);
  const ProcessReport report = TwoWindows(&a, &b, "computation_carried");
  CHECK(report.computation_ns == 700);   // [900, 1000), then [1000, 1500) and [1600, 1700)
  CHECK(report.communication_ns == 100);  // [1200, 1300)
  CHECK(report.overlap_ns == 100);
}

// An NCCL kernel carried in is a kernel but not computation: the next window, without NCCL
// kernels of its own, must not take its computation from the kernels' union.
TEST_CASE("distribution: an NCCL kernel carried into a window without NCCL kernels") {
  testing::TestTrace a, b;
  a.Kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 0, 8, 900, 1500, 900001);
  a.Kernel("gemm", 0, 7, 800, 950, 900002);
  b.Kernel("add", 0, 7, 1600, 1700, 900003);
  const ProcessReport report = TwoWindows(&a, &b, "nccl_carried");
  CHECK(report.computation_ns == 250);    // [800, 950), then [1600, 1700)
  CHECK(report.communication_ns == 600);  // [900, 1000), then [1000, 1500)
  CHECK(report.overlap_ns == 50);         // [900, 950)
}

}  // namespace
}  // namespace prof::analyzer
