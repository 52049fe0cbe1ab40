// Golden text outputs of the hand-built scenarios (analyzer/testdata/*.txt). Regenerate
// after an intended change with analyzer/testdata/regenerate.sh and review the diff.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "absl/strings/str_replace.h"
#include "analyzer/render/report_text.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/scenarios.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

// Temporary paths differ between runs; the goldens show <tmp> instead.
std::string Normalize(const std::string& text) {
  return absl::StrReplaceAll(text, {{testing::TempPath(""), "<tmp>/"}});
}

void CheckGolden(const std::string& name, const std::string& actual) {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  if (std::getenv("PROF_REGENERATE_GOLDEN") != nullptr && workspace != nullptr) {
    std::ofstream(std::string(workspace) + "/analyzer/testdata/" + name) << actual;
    return;
  }
  std::ifstream in("analyzer/testdata/" + name);
  REQUIRE(in.good());
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK(expected.str() == actual);
}

TEST_CASE("golden: one training step, every table in ns") {
  std::vector<ProcessReport> reports;
  reports.push_back(testing::Analyze(testing::WriteTrainingStepTrace("golden_step.pb")));
  CheckGolden("training_step.txt",
              Normalize(RenderReportsText(reports, std::nullopt, TimeUnit::kNanoseconds)));
}

TEST_CASE("golden: two ranks with NCCL, memory and the per-rank table, in ms") {
  std::vector<ProcessReport> reports;
  SummaryOptions options;
  options.sorted_by = SortKey::kGpuTotal;
  reports.push_back(
      testing::Analyze(testing::WriteRankTrace("golden_r0.pb", 0, 10000000), options));
  reports.push_back(
      testing::Analyze(testing::WriteRankTrace("golden_r1.pb", 1, 12000000), options));
  const SummaryTable ranks = RankSummary(reports);
  CheckGolden("two_ranks.txt",
              Normalize(RenderReportsText(reports, ranks, TimeUnit::kMilliseconds)));
}

}  // namespace
}  // namespace prof::analyzer
