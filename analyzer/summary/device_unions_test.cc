// The Overview's kernel row is the union of the Device Summary's per-device unions
// (device_unions.h): kernels overlapping across devices count once in its time. Expected
// values are the hand-made trace's intervals, summed by hand.
#include <string>

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

}  // namespace
}  // namespace prof::analyzer
