// The report's job layout from a synthetic 40-rank job written as real trace files
// (testing/job_traces.h): what is charted, the aggregated heat map and the embedded data,
// against what the generator injected (rank 27 computes 3 ms longer in steps 8-14, rank 5
// 0.5 ms longer in every step, rank 30 misses one all-gather), not against this code.
#include "analyzer/report/job_layout.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analyzer/cli/summary_command.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/render/report_text.h"
#include "analyzer/report/build_report.h"
#include "analyzer/testing/job_traces.h"
#include "analyzer/testing/scratch.h"

namespace prof::analyzer::report {
namespace {

constexpr int kRanks = 40;

testing::JobSpec Spec() {
  testing::JobSpec spec;
  spec.ranks = kRanks;
  spec.steps = 20;
  spec.straggler_rank = 27;
  spec.straggler_extra_ns = 3000000;
  spec.straggler_first_step = 8;
  spec.straggler_last_step = 14;
  spec.late_rank = 5;
  spec.late_extra_ns = 500000;
  spec.missing_rank = 30;
  spec.missing_step = 3;
  return spec;
}

// Written once for every test case.
const std::string& JobFolder() {
  static const std::string folder = [] {
    const std::string path = testing::ScratchFolder("report_job40");
    testing::WriteJobTraces(Spec(), path);
    return path;
  }();
  return folder;
}

CollectedRun Run() {
  absl::StatusOr<CollectedRun> run = CollectRun({JobFolder()});
  REQUIRE(run.ok());
  REQUIRE(run->ranks.size() == kRanks);
  return std::move(*run);
}

const ChartedRank* FindCharted(const CollectedRun& run, const JobLayout& layout, int32_t rank) {
  for (const ChartedRank& charted : layout.charted) {
    if (run.ranks[charted.run_index].rank == rank) return &charted;
  }
  return nullptr;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

TEST_CASE("the job layout starts past 32 processes") {
  CHECK_FALSE(UsesJobLayout(32));
  CHECK(UsesJobLayout(33));
}

TEST_CASE("the injected straggler is charted first, then the late rank; rank 0 is charted") {
  const CollectedRun run = Run();
  REQUIRE(run.layout.has_value());
  const JobLayout& layout = *run.layout;
  REQUIRE(!layout.charted.empty());
  CHECK(layout.charted.size() <= kMaxChartedRanks);
  CHECK(layout.processes == kRanks);
  const ChartedRank& first = layout.charted[0];
  CHECK(run.ranks[first.run_index].rank == 27);
  REQUIRE(!first.reasons.empty());
  // 7 steps x 3 ms over the median = 21 ms (the jitter moves it by at most 7 x 0.1 ms).
  CHECK(StartsWith(first.reasons[0], "straggler #1: 2"));
  CHECK(std::any_of(first.reasons.begin(), first.reasons.end(),
                    [](const std::string& r) { return StartsWith(r, "last arrival #1:"); }));
  const ChartedRank* late = FindCharted(run, layout, 5);
  REQUIRE(late != nullptr);
  CHECK(StartsWith(late->reasons[0], "straggler #2:"));
  const ChartedRank* zero = FindCharted(run, layout, 0);
  REQUIRE(zero != nullptr);
  CHECK(std::find(zero->reasons.begin(), zero->reasons.end(), "the first rank") !=
        zero->reasons.end());
}

TEST_CASE("only the charted ranks keep kernels, operators and memory; the others are slim") {
  const CollectedRun run = Run();
  std::vector<bool> charted(run.ranks.size(), false);
  for (const ChartedRank& rank : run.layout->charted) charted[rank.run_index] = true;
  for (size_t i = 0; i < run.ranks.size(); ++i) {
    CAPTURE(run.ranks[i].rank);
    CHECK(run.ranks[i].kernels.count("gemm_kernel") ==
          (charted[i] ? 1 : 0));  // every rank launches it
    CHECK(run.ranks[i].steps.size() == 20);
  }
}

TEST_CASE(
    "the report's cross-rank tables are the job view's, as profanalyze --views job prints them") {
  const JobLayout layout = *Run().layout;
  SummaryCommandOptions options;
  options.paths = {JobFolder()};
  options.views = "job";
  options.time_unit = "ms";
  const SummaryOutput text = ProduceSummary(options);
  REQUIRE(text.exit_code == 0);
  CHECK(RenderTablesText(layout.tables, TimeUnit::kMilliseconds) == text.text);
  // The missing all-gather puts rank 30 in its own data-quality group.
  bool missing = false;
  for (const QualityGroup& group : layout.job.quality) {
    if (group.state.find("missing from 1 collective(s)") == std::string::npos) continue;
    REQUIRE(group.rank_indices.size() == 1);
    missing = layout.job.ranks[group.rank_indices[0]].rank == 30;
  }
  CHECK(missing);
}

// A step's compute is its time outside [kernel start, end] of its two collectives: 20 ms
// before the all-reduce, 2 ms optimizer before the all-gather, each collective's kernel
// starting 10 us after its call, 100 us after the all-gather, and up to 2 x 50 us of
// jitter: 22.12 to 22.22 ms (job_traces.cc); rank 5 0.5 ms more, rank 27 3 ms more in
// steps 8-14. Clock drift (<= 10 ppm) moves a 25 ms step by < 1 us.
TEST_CASE("the heat map: buckets of consecutive ranks, each cell the bucket's slowest rank") {
  const JobReports reports = JobReportsOf(Run().job);
  const RankHeatMap map = BucketRankHeatMap(reports.reports, 6, kHeatMapColumns);
  CHECK(map.bucket_size == 7);    // ceil(40 / 6)
  REQUIRE(map.rows.size() == 6);  // ceil(40 / 7)
  CHECK(map.rows[3].first == 21);
  CHECK(map.rows[3].last == 27);
  CHECK(map.rows[5].first == 35);
  CHECK(map.rows[5].last == 39);
  REQUIRE(map.columns.size() == 20);
  CHECK(map.steps_per_column == 1);
  const auto within = [](double ns, double low_ms, double high_ms) {
    return ns >= low_ms * 1e6 - 1000 && ns <= high_ms * 1e6 + 1000;
  };
  for (size_t s = 0; s < map.columns.size(); ++s) {
    const int64_t step = map.columns[s].first_step;
    REQUIRE(map.columns[s].last_step == step);
    CAPTURE(step);
    const HeatMapCell& late = map.rows[0].cells[s];
    CHECK(late.rank_index == 5);
    CHECK(within(late.max_ns, 22.62, 22.72));
    const HeatMapCell& straggler = map.rows[3].cells[s];
    if (step >= 8 && step <= 14) {
      CHECK(straggler.rank_index == 27);
      CHECK(within(straggler.max_ns, 25.12, 25.22));
    } else {
      CHECK(within(straggler.max_ns, 22.12, 22.22));
    }
    for (size_t row : {1, 2, 4, 5}) {
      if (row == 4 && step == 3) continue;  // rank 30's missing all-gather counts as compute
      CHECK(within(map.rows[row].cells[s].max_ns, 22.12, 22.22));
      CHECK(map.rows[row].cells[s].steps == (row == 5 ? 5 : 7));
    }
  }
  CHECK(BucketRankHeatMap(reports.reports, kHeatMapRows, kHeatMapColumns).rows.size() ==
        kRanks);  // one a row
}

TEST_CASE("the heat map: past the column bound, consecutive steps share a column") {
  const JobReports reports = JobReportsOf(Run().job);
  const RankHeatMap map = BucketRankHeatMap(reports.reports, 6, 6);
  CHECK(map.steps_per_column == 4);  // ceil(20 / 6)
  REQUIRE(map.columns.size() == 5);  // ceil(20 / 4): steps 0-3, 4-7, 8-11, 12-15, 16-19
  for (size_t c = 0; c < 5; ++c) {
    CHECK(map.columns[c].first_step == int64_t(4 * c));
    CHECK(map.columns[c].last_step == int64_t(4 * c + 3));
    CHECK(map.rows[0].cells[c].steps == 7 * 4);
  }
  // Rank 27 computes 3 ms more in steps 8-14: columns 2 and 3, not 1 or 4.
  for (size_t c : {2, 3}) {
    const HeatMapCell& cell = map.rows[3].cells[c];
    CHECK(cell.rank_index == 27);
    CHECK(cell.step >= 8);
    CHECK(cell.step <= 14);
    CHECK(cell.max_ns >= 25.12e6 - 1000);
  }
  for (size_t c : {1, 4}) CHECK(map.rows[3].cells[c].max_ns <= 22.22e6 + 1000);
}

TEST_CASE("the page embeds only the charted ranks, the straggler first, and the job layout") {
  const CollectedRun run = Run();
  const std::string html = RenderReport(run, "job");
  CHECK(html.find("\"ranks\":[{\"rank\":27,") != std::string::npos);
  CHECK(html.find("\"job\":{\"processes\":40,") != std::string::npos);
  CHECK(html.find("\"straggler\":{\"rank\":27,") != std::string::npos);
  // The banner's data-quality group: rank 30's missing all-gather.
  CHECK(html.find(
            "{\"state\":\"missing from 1 collective(s)\",\"ranks\":1,\"named\":[\"rank 30\"]}") !=
        std::string::npos);
  size_t embedded = 0;
  for (size_t at = html.find("\"pid\":"); at != std::string::npos;
       at = html.find("\"pid\":", at + 1))
    ++embedded;
  CHECK(embedded == run.layout->charted.size());
}

}  // namespace
}  // namespace prof::analyzer::report
