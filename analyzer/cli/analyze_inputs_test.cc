// AnalyzeInputs reads a process one window file at a time; its tables must equal those of
// the same timeline in one file, including the union tables, whose work in flight at each
// window boundary is carried into the next window (summary/window_carry.h).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/render/report_text.h"
#include "analyzer/testing/scratch.h"
#include "analyzer/testing/synthetic_trace.h"

namespace prof::analyzer {
namespace {

std::string Analyze(const std::string& path, const ViewSet& views) {
  absl::StatusOr<AnalyzedInputs> analyzed = AnalyzeInputs({path}, SummaryOptions{}, views, 1);
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->reports.size() == 1);
  return RenderReportsText(analyzed->reports, std::nullopt, TimeUnit::kNanoseconds);
}

TEST_CASE("one timeline in 1 file or in 7 window files: the same tables, number for number") {
  const std::string folder = testing::ScratchFolder("windows");
  const std::string single = testing::ScratchFolder("single") + "/run.pb";
  const uint64_t events = 300000;
  REQUIRE(WriteSyntheticTrace(single, events, 1) == WriteSyntheticTrace(folder, events, 7));

  ViewSet views = AllViews();
  views.erase(View::kDataQuality);  // names the files, which differ
  const std::string whole = Analyze(single, views);
  const std::string windowed = Analyze(folder, views);
  INFO(testing::FirstDifferentLine(whole, windowed));
  CHECK(whole == windowed);
  CHECK(whole.find("Device Summary") != std::string::npos);
  CHECK(whole.find("Overview Summary") != std::string::npos);
}

// --window K: the summaries of one recording window only, as if its file were given alone.
TEST_CASE("--window K analyzes window K's file only") {
  const std::string folder = testing::ScratchFolder("window_query");
  REQUIRE(WriteSyntheticTrace(folder, 30000, 3) > 0);
  const std::string second = folder + "/bench.window_1.prof.pb";
  ViewSet views = AllViews();
  views.erase(View::kDataQuality);  // names the files, which differ
  absl::StatusOr<AnalyzedInputs> one =
      AnalyzeInputs({folder}, SummaryOptions{}, views, 1, /*window=*/1);
  REQUIRE(one.ok());
  REQUIRE(one->reports.size() == 1);
  CHECK(one->files_read == 1);
  CHECK(one->reports[0].files.size() == 1);
  CHECK(RenderReportsText(one->reports, std::nullopt, TimeUnit::kNanoseconds) ==
        Analyze(second, views));
  absl::StatusOr<AnalyzedInputs> none =
      AnalyzeInputs({folder}, SummaryOptions{}, views, 1, /*window=*/7);
  REQUIRE(none.ok());
  CHECK(none->reports.empty());
}

}  // namespace
}  // namespace prof::analyzer
