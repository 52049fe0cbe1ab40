#include "analyzer/report/job_layout.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "absl/strings/str_format.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/job/job_tables.h"

namespace prof::analyzer::report {
namespace {

using RankKey = std::tuple<int32_t, std::string, int64_t>;  // rank, host, pid

std::string Ms(double ns) { return absl::StrFormat("%.3f ms", ns / 1e6); }

// Collects charted ranks in the order they are named, each once with all its reasons,
// at most kMaxChartedRanks.
class ChartedPicker {
 public:
  ChartedPicker(const std::vector<RankFigures>& ranks, const JobAnalysis& job) : job_(job) {
    for (size_t i = 0; i < ranks.size(); ++i)
      run_index_.emplace(RankKey{ranks[i].rank, ranks[i].host, ranks[i].pid}, i);
  }

  void Add(uint32_t job_index, std::string reason) {
    const RankInfo& info = job_.ranks[job_index];
    const auto run = run_index_.find(RankKey{info.rank, info.host, info.pid});
    if (run == run_index_.end()) return;
    auto [position, added] = position_.emplace(run->second, charted_.size());
    if (added) {
      if (charted_.size() >= kMaxChartedRanks) {
        position_.erase(position);
        return;
      }
      charted_.push_back({run->second, {}});
    }
    charted_[position->second].reasons.push_back(std::move(reason));
  }

  std::vector<ChartedRank> Take() && { return std::move(charted_); }

 private:
  const JobAnalysis& job_;
  std::map<RankKey, size_t> run_index_;
  std::map<size_t, size_t> position_;  // run index -> index into charted_
  std::vector<ChartedRank> charted_;
};

const MetricDistribution* FindDistribution(const JobAnalysis& job, const std::string& key) {
  for (const MetricDistribution& metric : job.distributions) {
    if (metric.key == key) return &metric;
  }
  return nullptr;
}

// The slowest and the fastest rank by average step time (the job view's distribution).
void AddStepTimeExtremes(const JobAnalysis& job, ChartedPicker* picker) {
  const MetricDistribution* step = FindDistribution(job, "step_time_ns");
  if (step == nullptr || step->values.empty()) return;
  const auto [fastest, slowest] = std::minmax_element(step->values.begin(), step->values.end());
  picker->Add(slowest - step->values.begin(), "slowest average step: " + Ms(*slowest));
  picker->Add(fastest - step->values.begin(), "fastest average step: " + Ms(*fastest));
}

void AddOutliers(const JobAnalysis& job, const std::string& key, ChartedPicker* picker) {
  const MetricDistribution* metric = FindDistribution(job, key);
  if (metric == nullptr) return;
  const size_t shown = std::min(metric->outliers.size(), kChartedOutliers);
  for (size_t i = 0; i < shown; ++i) {
    const uint32_t index = metric->outliers[i];
    const double delta = metric->values[index] - metric->p50;
    picker->Add(index, absl::StrFormat("outlier in %s: %s%s vs P50", metric->name,
                                       delta >= 0 ? "+" : "-", Ms(std::abs(delta))));
  }
}

std::vector<ChartedRank> PickChartedRanks(const std::vector<RankFigures>& ranks,
                                          const JobAnalysis& job) {
  ChartedPicker picker(ranks, job);
  const StragglerAnalysis& stragglers = job.stragglers;
  for (size_t i = 0; i < std::min(stragglers.stragglers.size(), kChartedStragglers); ++i) {
    const StragglerEntry& entry = stragglers.stragglers[i];
    picker.Add(entry.rank_index,
               absl::StrFormat("straggler #%d: %s excess compute", i + 1, Ms(entry.excess_ns)));
  }
  for (size_t i = 0; i < std::min(stragglers.last_arrivals.size(), kChartedLastArrivals); ++i) {
    const LastArrival& entry = stragglers.last_arrivals[i];
    picker.Add(entry.rank_index,
               absl::StrFormat("last arrival #%d: last at %d collective(s), others waited %s",
                               i + 1, entry.times_last, Ms(entry.wait_caused_ns)));
  }
  AddStepTimeExtremes(job, &picker);
  for (uint32_t i = 0; i < job.ranks.size(); ++i) {
    if (job.ranks[i].rank == 0) picker.Add(i, "the first rank");
  }
  AddOutliers(job, "step_compute_ns", &picker);
  AddOutliers(job, "waited_ns", &picker);
  std::vector<ChartedRank> charted = std::move(picker).Take();
  if (charted.empty() && !ranks.empty()) charted.push_back({0, {"the first process"}});
  return charted;
}

}  // namespace

bool UsesJobLayout(size_t processes) { return processes > kJobLayoutRanks; }

JobLayout BuildJobLayout(const prof::job::JobPartial& job, const std::vector<RankFigures>& ranks) {
  const JobReports reports = JobReportsOf(job);
  JobLayout layout;
  layout.processes = ranks.size();
  layout.job = AnalyzeJob(reports.reports, reports.unreadable.size());
  layout.tables = JobTables(layout.job, kJobTextRows);
  layout.charted = PickChartedRanks(ranks, layout.job);
  layout.heat_map = BucketRankHeatMap(reports.reports, kHeatMapRows, kHeatMapColumns);
  return layout;
}

}  // namespace prof::analyzer::report
