// A run that exhausts a tiny PROF_BUFFER_MB (issue 12): the analyzer must still see every
// step (their boundaries travel on the agent's control path), and its Data Quality table
// must name each step whose records were lost, with counts that, added to the calls it
// did read, give back every launch the program made (launch_stress's flags: 8 threads x
// 5,000 launches in each of 10 rounds, one step per round).
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/testing/analyze.h"

namespace prof::analyzer::e2e {
namespace {

TEST_CASE("a tiny budget: every step analyzed, the incomplete ones named with their loss") {
  constexpr int kRounds = 10;
  constexpr uint64_t kLaunches = 400000;
  const std::string output = FreshFolder("tiny_budget");
  const absl::Status run =
      RunUnderAgent({{Runfile("testdata/workloads/launch_stress"),
                      {"--threads", "8", "--launches", std::to_string(kLaunches), "--rounds",
                       std::to_string(kRounds)},
                      {{"PROF_BUFFER_MB", "1"}}}},
                    output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<std::vector<ProcessFigures>> figures = AnalyzeFolder(output);
  REQUIRE(figures.ok());
  REQUIRE(figures->size() == 1);
  const ProcessReport& report = (*figures)[0].report;
  // The rounds' steps, and the one that ends at exit.
  CHECK(report.step_count >= kRounds);
  const SummaryTable* quality = testing::FindTable(report, "data_quality");
  REQUIRE(quality != nullptr);
  uint64_t lost_in_steps = 0;
  int incomplete = 0;
  for (const Row& row : quality->rows) {
    if (row.kind != Row::Kind::kData) continue;
    if (row.cells[0].text.rfind("incomplete step ", 0) == 0) {
      lost_in_steps += static_cast<uint64_t>(row.cells[1].value);
      ++incomplete;
    }
  }
  CHECK(incomplete >= 1);
  const SummaryTable* api = testing::FindTable(report, "cuda_api");
  REQUIRE(api != nullptr);
  const Row* launches = testing::FindRow(*api, "cudaLaunchKernel");
  REQUIRE(launches != nullptr);
  CHECK(static_cast<uint64_t>(launches->cells[1].value) + lost_in_steps == kLaunches);
}

}  // namespace
}  // namespace prof::analyzer::e2e
