// AnalyzeInputs reads a process one window file at a time; its tables must equal those of
// the same timeline in one file, including the union tables, whose work in flight at each
// window boundary is carried into the next window (summary/window_carry.h).
#include <cstdlib>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_split.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/render/report_text.h"
#include "analyzer/testing/synthetic_trace.h"

namespace prof::analyzer {
namespace {

std::string TempFolder(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string folder = std::string(root ? root : "/tmp") + "/" + name;
  std::system(("rm -rf '" + folder + "' && mkdir -p '" + folder + "'").c_str());
  return folder;
}

std::string Analyze(const std::string& path, const ViewSet& views) {
  absl::StatusOr<AnalyzedInputs> analyzed = AnalyzeInputs({path}, SummaryOptions{}, views, 1);
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->reports.size() == 1);
  return RenderReportsText(analyzed->reports, std::nullopt, TimeUnit::kNanoseconds);
}

std::string FirstDifference(const std::string& a, const std::string& b) {
  const std::vector<std::string> left = absl::StrSplit(a, '\n');
  const std::vector<std::string> right = absl::StrSplit(b, '\n');
  for (size_t i = 0; i < left.size() && i < right.size(); ++i) {
    if (left[i] != right[i]) return "line " + std::to_string(i + 1) + ":\n  " + left[i] + "\n  " + right[i];
  }
  return left.size() == right.size() ? "" : "lengths differ";
}

TEST_CASE("one timeline in 1 file or in 7 window files: the same tables, number for number") {
  const std::string folder = TempFolder("windows");
  const std::string single = TempFolder("single") + "/run.pb";
  const uint64_t events = 300000;
  REQUIRE(WriteSyntheticTrace(single, events, 1) == WriteSyntheticTrace(folder, events, 7));

  ViewSet views = AllViews();
  views.erase(View::kDataQuality);  // names the files, which differ
  const std::string whole = Analyze(single, views);
  const std::string windowed = Analyze(folder, views);
  INFO(FirstDifference(whole, windowed));
  CHECK(whole == windowed);
  CHECK(whole.find("Device Summary") != std::string::npos);
  CHECK(whole.find("Overview Summary") != std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer
