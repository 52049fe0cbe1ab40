// The job view end to end: synthetic jobs written as real trace files (testing/job_traces.h)
// with clock offsets, drift, a transient straggler, a habitual late arriver and a missing
// collective injected; the expected values come from the generator, not from this code.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_split.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/cli/summary_command.h"
#include "analyzer/job/job_analysis.h"
#include "analyzer/testing/job_traces.h"
#include "analyzer/testing/scratch.h"

namespace prof::analyzer {
namespace {

using testing::JobSpec;
using testing::JobTruth;

// Recovered offsets must map every rank's clock onto rank 0's within this (ns).
constexpr double kOffsetToleranceNs = 2000;

std::vector<ProcessReport> Reports(const std::string& folder) {
  absl::StatusOr<AnalyzedInputs> inputs = AnalyzeInputs({folder}, SummaryOptions{}, AllViews(), 2);
  REQUIRE(inputs.ok());
  return std::move(inputs->reports);
}

size_t Lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// The first line of `text` holding `needle`; "" when none.
std::string LineWith(const std::string& text, const std::string& needle) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.find(needle) != absl::string_view::npos) return std::string(line);
  }
  return "";
}

std::string Output(const std::string& folder, const std::string& views = "",
                   const std::string& format = "text") {
  SummaryCommandOptions options;
  options.paths = {folder};
  options.views = views;
  options.format = format;
  options.threads = 2;
  const SummaryOutput output = ProduceSummary(options);
  REQUIRE(output.exit_code == 0);
  return output.text;
}

// The issue's example: 16 ranks whose collectives wait for every rank, rank 11 computing
// 3 ms longer in steps 8-14.
JobSpec IssueExample() {
  JobSpec spec;
  spec.ranks = 16;
  spec.steps = 20;
  spec.straggler_rank = 11;
  spec.straggler_extra_ns = 3000000;
  spec.straggler_first_step = 8;
  spec.straggler_last_step = 14;
  return spec;
}

TEST_CASE("job: the issue's 16-rank example names rank 11 first, in stragglers and last arrivals") {
  const JobTruth truth = WriteJobTraces(IssueExample(), testing::ScratchFolder("issue16"));
  const JobAnalysis job = AnalyzeJob(Reports(truth.folder));
  REQUIRE(job.ranks.size() == 16);
  REQUIRE(!job.stragglers.stragglers.empty());
  CHECK(job.ranks[job.stragglers.stragglers[0].rank_index].rank == 11);
  CHECK(job.stragglers.stragglers[0].steps_slowest >= 7);  // plus any step its jitter tops
  CHECK(job.stragglers.stragglers[0].excess_ns == Approx(7 * 3e6).epsilon(0.02));
  REQUIRE(!job.stragglers.last_arrivals.empty());
  CHECK(job.ranks[job.stragglers.last_arrivals[0].rank_index].rank == 11);
  CHECK(job.stragglers.last_arrivals[0].times_last >= 7);
  // Worst steps are 8..14, each with rank 11 about 3 ms above the median rank.
  REQUIRE(job.stragglers.worst_steps.size() >= 7);
  for (size_t i = 0; i < 7; ++i) {
    const StepStraggler& step = job.stragglers.worst_steps[i];
    CHECK(step.step >= 8);
    CHECK(step.step <= 14);
    CHECK(job.ranks[step.rank_index].rank == 11);
    CHECK(step.excess_ns == Approx(3e6).epsilon(0.03));
  }
  CHECK(job.match.incomplete == 0);
  CHECK(job.clock.violations == 0);

  const std::string json = Output(truth.folder, "job", "json");
  CHECK(json.find("\"job\":{") != std::string::npos);
  CHECK(json.find("\"stragglers\":[{\"rank\":11,") != std::string::npos);
  CHECK(json.find("\"last_arrivals\":[{\"rank\":11,") != std::string::npos);
  const std::string text = Output(truth.folder);  // 16 ranks: the job view by default
  CHECK(text.find("Straggler") != std::string::npos);
  CHECK(Lines(text) <= 200);
}

TEST_CASE(
    "job: per-host offsets and drift recovered; habitual late arriver and missing rank named") {
  JobSpec spec = IssueExample();
  spec.ranks = 32;
  spec.late_rank = 20;
  spec.late_extra_ns = 400000;
  spec.missing_rank = 5;
  spec.missing_step = 3;
  const JobTruth truth = WriteJobTraces(spec, testing::ScratchFolder("job32"));
  const JobAnalysis job = AnalyzeJob(Reports(truth.folder));
  REQUIRE(job.ranks.size() == 32);
  for (size_t i = 0; i < job.ranks.size(); ++i) {
    const int rank = job.ranks[i].rank;
    for (uint64_t t : {uint64_t{2000000}, uint64_t{200000000}, uint64_t{480000000}}) {
      INFO("rank " << rank << " at " << t);
      const double aligned = job.clock.Align(i, truth.HostClock(rank, t));
      CHECK(std::abs(aligned - static_cast<double>(truth.HostClock(0, t))) < kOffsetToleranceNs);
    }
  }
  CHECK(job.clock.violations == 0);
  CHECK(job.ranks[job.stragglers.stragglers[0].rank_index].rank == 11);
  CHECK(job.ranks[job.stragglers.stragglers[1].rank_index].rank == 20);
  CHECK(job.ranks[job.stragglers.last_arrivals[0].rank_index].rank == 11);
  // The habitual late arriver is last most often (every all-reduce but rank 11's steps).
  const auto most_often = std::max_element(
      job.stragglers.last_arrivals.begin(), job.stragglers.last_arrivals.end(),
      [](const LastArrival& a, const LastArrival& b) { return a.times_last < b.times_last; });
  CHECK(job.ranks[most_often->rank_index].rank == 20);
  CHECK(most_often->times_last >= 13);
  // Rank 5's all-gather of step 3 (sequence 8) is missing: counted and named, not dropped.
  CHECK(job.match.incomplete == 1);
  REQUIRE(job.match.missing_per_rank.size() == 32);
  CHECK(job.match.missing_per_rank[5] == 1);
  const std::string text = Output(truth.folder);
  const std::string missing = LineWith(text, "missing from 1 collective(s)");
  INFO(text);
  CHECK(missing.find("rank 5") != std::string::npos);
}

TEST_CASE("job: 2,048 ranks, the default text stays within 200 lines") {
  JobSpec spec = IssueExample();
  spec.ranks = 2048;
  spec.steps = 3;
  spec.straggler_first_step = 1;
  spec.straggler_last_step = 1;
  spec.straggler_rank = 1500;
  const JobTruth truth = WriteJobTraces(spec, testing::ScratchFolder("job2048"));
  const std::string text = Output(truth.folder);
  CHECK(Lines(text) <= 200);
  CHECK(text.find("rank 1500") != std::string::npos);
}

TEST_CASE("job: 8 ranks or fewer print the per-rank tables by default, as before") {
  JobSpec spec = IssueExample();
  spec.ranks = 4;
  spec.straggler_rank = 3;
  const JobTruth truth = WriteJobTraces(spec, testing::ScratchFolder("job4"));
  const std::string text = Output(truth.folder);
  CHECK(text.find("Distributed Summary per Rank") != std::string::npos);
  CHECK(text.find("Straggler") == std::string::npos);
  const std::string job = Output(truth.folder, "job");
  CHECK(job.find("Straggler") != std::string::npos);
  CHECK(job.find("Kernel Summary") == std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer
