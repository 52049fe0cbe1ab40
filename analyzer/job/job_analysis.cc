#include "analyzer/job/job_analysis.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace prof::analyzer {
namespace {

// What is wrong with one rank's data, "" when nothing; `quality` describes its Data
// Quality counts (empty: none).
std::string QualityState(const JobAnalysis& job, const ProcessReport& report, uint32_t index,
                         const std::string& quality) {
  std::vector<std::string> issues;
  if (!quality.empty()) {
    issues.push_back(absl::StrCat(quality, " (--rank N --views data_quality)"));
  } else if (!report.quality_perfect) {
    issues.push_back("records lost or damaged (--rank N --views data_quality)");
  }
  if (job.match.calls_per_rank[index] == 0) issues.push_back("no NCCL collectives");
  if (job.match.missing_per_rank[index] > 0) {
    issues.push_back(
        absl::StrCat("missing from ", job.match.missing_per_rank[index], " collective(s)"));
  }
  if (job.match.calls_per_rank[index] > 0 && !job.clock.ranks[index].fitted) {
    issues.push_back("clock not aligned (no N-to-N collective shared with aligned ranks)");
  }
  return issues.empty() ? "complete" : absl::StrJoin(issues, "; ");
}

// Ranks group by which Data Quality items they have (not their counts, so the groups stay
// few); a group shows each item's count summed over its members, in the items' order.
std::string ItemNames(const ProcessReport& report) {
  std::vector<std::string> names;
  for (const auto& [item, count] : report.quality_counts) names.push_back(item);
  return absl::StrJoin(names, ", ");
}

std::string SummedCounts(const std::vector<ProcessReport>& reports,
                         const std::vector<uint32_t>& members) {
  std::vector<std::pair<std::string, uint64_t>> sums;
  for (uint32_t i : members) {
    for (size_t k = 0; k < reports[i].quality_counts.size(); ++k) {
      if (sums.size() <= k) sums.emplace_back(reports[i].quality_counts[k].first, 0);
      sums[k].second += reports[i].quality_counts[k].second;
    }
  }
  std::vector<std::string> parts;
  for (const auto& [item, count] : sums) parts.push_back(absl::StrCat(item, " ", count));
  return absl::StrJoin(parts, ", ");
}

std::vector<QualityGroup> GroupByQuality(const JobAnalysis& job,
                                         const std::vector<ProcessReport>& reports) {
  std::map<std::string, std::vector<uint32_t>> groups;
  for (uint32_t i = 0; i < reports.size(); ++i)
    groups[QualityState(job, reports[i], i, ItemNames(reports[i]))].push_back(i);
  std::vector<QualityGroup> sorted;
  for (auto& [key, members] : groups) {
    // Members share every issue but the counts: the first one's state, with the sums.
    const uint32_t first = members.front();
    sorted.push_back(
        {QualityState(job, reports[first], first, SummedCounts(reports, members)), members});
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const QualityGroup& a, const QualityGroup& b) {
    return a.rank_indices.size() > b.rank_indices.size();
  });
  return sorted;
}

std::vector<MetricDistribution> Distributions(const JobAnalysis& job,
                                              const std::vector<ProcessReport>& reports) {
  const size_t n = reports.size();
  std::vector<double> step(n), communication(n), computation(n), offset(n);
  std::vector<bool> fitted(n);
  for (size_t i = 0; i < n; ++i) {
    const ProcessReport& report = reports[i];
    step[i] = report.step_count ? static_cast<double>(report.total_ns) / report.step_count
                                : report.total_ns;
    communication[i] = report.communication_ns;
    computation[i] = report.computation_ns;
    offset[i] = job.clock.ranks[i].offset_ns;
    fitted[i] = job.clock.ranks[i].fitted;
  }
  return {Distribution("Step compute (avg)", "step_compute_ns", true,
                       job.stragglers.compute_per_step_ns),
          Distribution("Waited in collectives", "waited_ns", true, job.stragglers.waited_ns),
          Distribution("Step time (avg)", "step_time_ns", true, step),
          Distribution("Communication", "communication_ns", true, communication),
          Distribution("Computation", "computation_ns", true, computation),
          Distribution("Clock offset", "clock_offset_ns", true, offset, fitted)};
}

}  // namespace

std::string RankInfo::Label() const {
  return rank >= 0 ? absl::StrCat("rank ", rank) : absl::StrCat("pid ", pid);
}

CollectiveFigures CollectiveFiguresOf(const std::vector<ProcessReport>& reports) {
  std::vector<const CollectiveTable*> tables;
  for (const ProcessReport& report : reports) tables.push_back(&report.collectives);
  CollectiveFigures figures;
  figures.match = MatchCollectives(tables);
  figures.clock = FitClocks(figures.match, reports.size());
  figures.arrivals = AnalyzeArrivals(figures.match, figures.clock, reports.size());
  return figures;
}

JobAnalysis AnalyzeJob(const std::vector<ProcessReport>& reports, size_t unreadable_files) {
  return AnalyzeJobWith(reports, unreadable_files, CollectiveFiguresOf(reports));
}

JobAnalysis AnalyzeJobWith(const std::vector<ProcessReport>& reports, size_t unreadable_files,
                           CollectiveFigures figures) {
  JobAnalysis job;
  job.unreadable_files = unreadable_files;
  std::vector<const CollectiveTable*> tables;
  std::set<std::string> hosts;
  for (const ProcessReport& report : reports) {
    job.ranks.push_back({report.identity.rank, report.identity.host, report.identity.pid});
    hosts.insert(report.identity.host);
    tables.push_back(&report.collectives);
  }
  job.hosts = hosts.size();
  job.match = std::move(figures.match);
  job.clock = std::move(figures.clock);
  job.stragglers = std::move(figures.arrivals);
  if (!figures.steps_analyzed) AnalyzeSteps(tables, &job.stragglers);
  job.distributions = Distributions(job, reports);
  job.quality = GroupByQuality(job, reports);
  return job;
}

}  // namespace prof::analyzer
