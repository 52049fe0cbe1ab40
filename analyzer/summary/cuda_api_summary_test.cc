// The CUDA API Summary: every call's host time by function. The calls of the hand-made
// trace alternate between two functions in runs of one and two calls, so a function's
// figures gather calls from several runs; expected values are summed by hand.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

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

// The interleaved calls, a copy's device record, and two launches with a configuration, one
// of them answered by its kernel record.
std::string WriteCallsOfThreeTables(const std::string& name) {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.ApiCall(1, "cudaLaunchKernel", 10, 14);
  trace.ApiCall(1, "cudaLaunchKernel", 20, 26);
  const uint64_t copy = trace.ApiCall(1, "cudaMemcpyAsync", 30, 40);
  trace.Memcpy(0, 7, 41, 45, 4096, schema::COPY_KIND_HOST_TO_DEVICE, copy);
  trace.ApiCall(1, "cudaMemcpyAsync", 60, 80);
  constexpr uint32_t kGrid[3] = {8, 1, 1}, kBlock[3] = {128, 1, 1};
  trace.Kernel("gemm", 0, 7, 120, 150, trace.HostLaunch(1, 100, 105, "gemm", kGrid, kBlock));
  trace.HostLaunch(1, 110, 115, "relu", kGrid, kBlock);  // its kernel record was lost
  return trace.Write(name);
}

// The table `key` of the trace analyzed with `views` only, as cells' values and texts.
std::vector<std::string> TableCells(const std::string& path, const ViewSet& views,
                                    const std::string& key) {
  const ProcessReport report =
      BuildProcessReport(testing::LoadOrDie(path), SummaryOptions(), views);
  std::vector<std::string> cells;
  const SummaryTable* table = FindTable(report, key);
  if (table == nullptr) return cells;
  for (const std::string& line : table->preamble) cells.push_back(line);
  for (const Row& row : table->rows) {
    for (const Cell& cell : row.cells)
      cells.push_back(cell.text + "|" + std::to_string(cell.value) + "|" +
                      std::to_string(cell.stats.total_ns) + "|" +
                      std::to_string(cell.stats.max_ns) + "|" + std::to_string(cell.stats.min_ns));
  }
  return cells;
}

// The API table, the copy table and the count of launches come from one walk over the
// calls: each table is the same whichever of the others is wanted.
TEST_CASE("cuda api summary: the walk over the calls fills each table alone or with others") {
  const std::string path = WriteCallsOfThreeTables("three_tables.pb");
  const ViewSet all = AllViews();
  for (const auto& [view, key] :
       std::vector<std::pair<View, std::string>>{{View::kCudaApi, "cuda_api"},
                                                 {View::kMemoryManipulation, "memory_manipulation"},
                                                 {View::kKernel, "kernel_launch"}}) {
    INFO(key);
    const std::vector<std::string> together = TableCells(path, all, key);
    CHECK_FALSE(together.empty());
    CHECK(TableCells(path, {view}, key) == together);
  }
  const ProcessReport report = testing::Analyze(path);
  CHECK(FindTable(report, "kernel_launch")->preamble[0].rfind("No device times: 1 of 2", 0) == 0);
  CHECK(FindRow(*FindTable(report, "memory_manipulation"), "cudaMemcpyAsync HtoD") != nullptr);
  CHECK(FindRow(*FindTable(report, "cuda_api"), "cudaLaunchKernel")->cells[1].value == 4);
}

}  // namespace
}  // namespace prof::analyzer
