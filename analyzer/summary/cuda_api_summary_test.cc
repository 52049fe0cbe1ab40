// The CUDA API Summary: every call's host time by function. The calls of the hand-made
// trace alternate between two functions in runs of one and two calls, so a function's
// figures gather calls from several runs; expected values are summed by hand.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include "analyzer/summary/cuda_api_summary.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using testing::FindRow;
using testing::FindTable;

// One step; launches of 4, 6 and 2 ns and copies of 10, 20 and 1 ns, in the order
// launch launch copy launch copy copy.
std::string WriteInterleavedCalls(const std::string& name) {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.ApiCall(1, "cudaLaunchKernel", 10, 14);
  trace.ApiCall(1, "cudaLaunchKernel", 20, 26);
  trace.ApiCall(1, "cudaMemcpyAsync", 30, 40);
  trace.ApiCall(1, "cudaLaunchKernel", 50, 52);
  trace.ApiCall(1, "cudaMemcpyAsync", 60, 80);
  trace.ApiCall(1, "cudaMemcpyAsync", 90, 91);
  return trace.Write(name);
}

TEST_CASE("cuda api summary: a function's calls summed over its runs") {
  const ProcessReport report = testing::Analyze(WriteInterleavedCalls("interleaved_calls.pb"));
  const SummaryTable* table = FindTable(report, "cuda_api");
  REQUIRE(table != nullptr);
  REQUIRE(table->rows.size() == 2);
  CHECK(table->rows[0].cells[0].text == "cudaMemcpyAsync");  // the larger CPU total first

  const Row* launches = FindRow(*table, "cudaLaunchKernel");
  REQUIRE(launches != nullptr);
  CHECK(launches->cells[1].value == 3);
  CHECK(launches->cells[2].value == 0);
  const TimeStats& launch = launches->cells[3].stats;
  CHECK(launch.total_ns == 12);
  CHECK(launch.max_ns == 6);
  CHECK(launch.min_ns == 2);
  CHECK(launch.ratio == Approx(12.0 / 43));
  // Mean 4, mean of squares (16 + 36 + 4) / 3: variance 56 / 3 - 16 = 8 / 3.
  CHECK(launches->cells[4].value == Approx(std::sqrt(8.0 / 3)));

  const Row* copies = FindRow(*table, "cudaMemcpyAsync");
  REQUIRE(copies != nullptr);
  CHECK(copies->cells[1].value == 3);
  const TimeStats& copy = copies->cells[3].stats;
  CHECK(copy.total_ns == 31);
  CHECK(copy.max_ns == 20);
  CHECK(copy.min_ns == 1);
  CHECK(copy.ratio == Approx(31.0 / 43));
  // Mean 31 / 3, mean of squares (100 + 400 + 1) / 3 = 167: variance 167 - 961 / 9 = 542 / 9.
  CHECK(copies->cells[4].value == Approx(std::sqrt(542.0 / 9)));
}

}  // namespace
}  // namespace prof::analyzer
