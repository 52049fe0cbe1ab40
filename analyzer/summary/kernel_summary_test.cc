// The Kernel Launch Summary: launches no device kernel record answered, by the launch
// configuration the launching call passed. Expected rows are the hand-made trace's own
// launches, counted by hand.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/model/model_merge.h"
#include "analyzer/summary/kernel_summary.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using testing::FindTable;

constexpr uint32_t kGemmGrid[3] = {7, 5, 3};
constexpr uint32_t kGemmBlock[3] = {32, 4, 2};
constexpr uint32_t kReluGrid[3] = {80, 1, 1};
constexpr uint32_t kReluBlock[3] = {256, 1, 1};

// One step of 6 launches and no kernel record (a run without CUPTI): gemm three times with
// 1 KiB of dynamic shared memory, relu twice, gemm once more with a smaller grid.
std::string WriteHostOnlyTrace(const std::string& name) {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  uint64_t at = 10;
  for (int i = 0; i < 3; ++i, at += 20)
    trace.HostLaunch(1, at, at + 5, "gemm", kGemmGrid, kGemmBlock, 1024);
  for (int i = 0; i < 2; ++i, at += 20)
    trace.HostLaunch(1, at, at + 5, "relu", kReluGrid, kReluBlock);
  trace.HostLaunch(1, at, at + 5, "gemm", kReluGrid, kGemmBlock, 1024);
  return trace.Write(name);
}

std::vector<std::string> Cells(const Row& row) {
  std::vector<std::string> texts;
  for (const Cell& cell : row.cells) {
    texts.push_back(cell.kind == Cell::Kind::kText ? cell.text
                                                   : std::to_string(static_cast<int>(cell.value)));
  }
  return texts;
}

TEST_CASE("kernel launch summary: without kernel records, the launches by configuration") {
  const ProcessReport report = testing::Analyze(WriteHostOnlyTrace("host_only.pb"));
  CHECK(FindTable(report, "kernel") == nullptr);  // no device times to show
  const SummaryTable* table = FindTable(report, "kernel_launch");
  REQUIRE(table != nullptr);
  CHECK(table->title == "Kernel Launch Summary (host side)");
  REQUIRE(table->preamble.size() == 1);
  CHECK(table->preamble[0].rfind("No device times: 6 of 6 kernel launches have no device", 0) == 0);
  REQUIRE(table->rows.size() == 3);  // by calls, ties in first-seen order
  CHECK(Cells(table->rows[0]) ==
        std::vector<std::string>{"gemm", "3", "[7, 5, 3]", "[32, 4, 2]", "1024"});
  CHECK(Cells(table->rows[1]) ==
        std::vector<std::string>{"relu", "2", "[80, 1, 1]", "[256, 1, 1]", "0"});
  CHECK(Cells(table->rows[2]) ==
        std::vector<std::string>{"gemm", "1", "[80, 1, 1]", "[32, 4, 2]", "1024"});
  SummaryOptions top;
  top.top = 1;
  const ProcessReport first = testing::Analyze(WriteHostOnlyTrace("host_top.pb"), top);
  CHECK(FindTable(first, "kernel_launch")->rows.size() == 1);
}

TEST_CASE("kernel launch summary: only the launches whose kernel record never came") {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  const uint64_t answered = trace.HostLaunch(1, 10, 15, "gemm", kGemmGrid, kGemmBlock);
  trace.Kernel("gemm", 0, 7, 20, 60, answered);
  trace.HostLaunch(1, 30, 35, "gemm", kGemmGrid, kGemmBlock);  // its record was lost
  const ProcessReport report = testing::Analyze(trace.Write("one_lost.pb"));
  CHECK(testing::FindRow(*FindTable(report, "kernel"), "gemm")->cells[1].value == 1);
  const SummaryTable* table = FindTable(report, "kernel_launch");
  REQUIRE(table != nullptr);
  CHECK(table->preamble[0].rfind("No device times: 1 of 2 kernel launches", 0) == 0);
  REQUIRE(table->rows.size() == 1);
  CHECK(Cells(table->rows[0])[1] == "1");
}

TEST_CASE("kernel launch summary: absent when every launch has its kernel record") {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.Kernel("gemm", 0, 7, 20, 60, trace.HostLaunch(1, 10, 15, "gemm", kGemmGrid, kGemmBlock));
  trace.Launch(1, 100, 110, "add", 0, 7, 200, 300);  // a call without a configuration
  const ProcessReport report = testing::Analyze(trace.Write("all_answered.pb"));
  CHECK(FindTable(report, "kernel") != nullptr);
  CHECK(FindTable(report, "kernel_launch") == nullptr);
}

TEST_CASE("joined windows keep each call's launch configuration and kernel name") {
  TraceModel joined = testing::LoadOrDie(WriteHostOnlyTrace("join_a.pb"));
  testing::TestTrace other;
  other.Step(1, 2000, 3000, 2);
  other.HostLaunch(1, 2010, 2015, "softmax", kReluBlock, kReluGrid, 64);
  AppendModel(testing::LoadOrDie(other.Write("join_b.pb")), &joined);
  const ApiCall& last = joined.api_calls.back();
  REQUIRE(last.launch != kNoIndex);
  const KernelLaunch& launch = joined.kernel_launches[last.launch];
  CHECK(joined.names.Get(launch.name) == "softmax");
  CHECK(launch.grid[0] == 256);
  CHECK(launch.block[0] == 80);
  CHECK(launch.dynamic_shared_memory == 64);
  CHECK(joined.names.Get(joined.kernel_launches[joined.api_calls.front().launch].name) == "gemm");
}

}  // namespace
}  // namespace prof::analyzer
