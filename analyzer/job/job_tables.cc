#include "analyzer/job/job_tables.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/job/job_summary_table.h"

namespace prof::analyzer {
namespace {

// A trace that names no rank (no launcher variables) is shown by its pid ("pid 4242").
Cell RankCell(const JobAnalysis& job, uint32_t index) {
  const RankInfo& rank = job.ranks[index];
  return rank.rank >= 0 ? Cell::Count(rank.rank) : Cell::Text(rank.Label());
}
Cell HostCell(const JobAnalysis& job, uint32_t index) { return Cell::Text(job.ranks[index].host); }

SummaryTable StragglerTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "stragglers";
  table.title = "Straggler Leaderboard";
  table.columns = {{"Rank", "rank", 6},
                   {"Host", "host", 10},
                   {"Excess Compute", "excess_compute_ns", 14},
                   {"Steps Slowest", "steps_slowest", 13},
                   {"Worst Step", "worst_step", 10},
                   {"Worst Excess", "worst_excess_ns", 12}};
  for (const StragglerEntry& entry : job.stragglers.stragglers) {
    table.AddRow({RankCell(job, entry.rank_index), HostCell(job, entry.rank_index),
                  Cell::Time(entry.excess_ns), Cell::Count(entry.steps_slowest),
                  Cell::Count(entry.worst_step), Cell::Time(entry.worst_excess_ns)});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "Excess compute: a step's time outside collectives minus the median rank's for that step,",
      "summed over the steps where it is positive. In synchronous training every rank's step",
      "lasts as long as the slowest one's: the straggler is the rank that computes longer."};
  return table;
}

SummaryTable LastArrivalTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "last_arrivals";
  table.title = "Last Arrivals at Collectives";
  table.columns = {{"Rank", "rank", 6},
                   {"Host", "host", 10},
                   {"Times Last", "times_last", 10},
                   {"Others Waited", "wait_caused_ns", 13},
                   {"Max Lead", "max_lead_ns", 10}};
  for (const LastArrival& entry : job.stragglers.last_arrivals) {
    table.AddRow({RankCell(job, entry.rank_index), HostCell(job, entry.rank_index),
                  Cell::Count(entry.times_last), Cell::Time(entry.wait_caused_ns),
                  Cell::Time(entry.max_lateness_ns)});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      absl::StrFormat(
          "Over %d complete N-to-N collectives on the aligned clock. Others Waited: the",
          job.stragglers.analyzed_collectives),
      "last arrival minus each other member's, summed; Max Lead: its largest lead over the",
      "second-last arrival. Arrival: the NCCL kernel's start (the call's start without one)."};
  return table;
}

SummaryTable WorstStepTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "worst_steps";
  table.title = "Worst Steps";
  table.columns = {{"Step", "step", 6},
                   {"Slowest Rank", "rank", 12},
                   {"Host", "host", 10},
                   {"Excess Compute", "excess_compute_ns", 14},
                   {"Median Compute", "median_compute_ns", 14},
                   {"Ranks", "ranks", 6}};
  for (const StepStraggler& step : job.stragglers.worst_steps) {
    table.AddRow({Cell::Count(step.step), RankCell(job, step.rank_index),
                  HostCell(job, step.rank_index), Cell::Time(step.excess_ns),
                  Cell::Time(step.median_compute_ns), Cell::Count(step.ranks)});
  }
  return table;
}

SummaryTable CommunicatorTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "communicators";
  table.title = "Collective Skew per Communicator";
  table.columns = {{"Communicator", "communicator", 18},
                   {"Ranks", "ranks", 6},
                   {"Collectives", "collectives", 11},
                   {"Skew p50", "skew_p50_ns", 10},
                   {"Skew p99", "skew_p99_ns", 10},
                   {"Waited", "waited_ns", 10},
                   {"Most Often Last", "most_often_last_rank", 15},
                   {"Times", "most_often_last_times", 6}};
  for (const CommunicatorArrivals& comm : job.stragglers.communicators) {
    table.AddRow({Cell::Text(absl::StrFormat("0x%016x", comm.comm_hash)), Cell::Count(comm.ranks),
                  Cell::Count(comm.collectives), Cell::Time(comm.skew_p50_ns),
                  Cell::Time(comm.skew_p99_ns), Cell::Time(comm.waited_ns),
                  RankCell(job, comm.most_often_last), Cell::Count(comm.most_often_count)});
  }
  return table;
}

// "rank 11 (+21.000 ms), rank 3 (-1.200 ms) and 4 more".
std::string OutlierNames(const JobAnalysis& job, const MetricDistribution& metric) {
  std::string names;
  const size_t shown = std::min<size_t>(metric.outliers.size(), 5);
  for (size_t i = 0; i < shown; ++i) {
    const uint32_t rank = metric.outliers[i];
    const double delta = metric.values[rank] - metric.p50;
    absl::StrAppend(&names, i ? ", " : "", job.ranks[rank].Label(),
                    metric.time ? absl::StrFormat(" (%+.3f ms)", delta / 1e6)
                                : absl::StrFormat(" (%+.0f)", delta));
  }
  if (metric.outliers.size() > shown)
    absl::StrAppend(&names, " and ", metric.outliers.size() - shown, " more");
  return names.empty() ? "-" : names;
}

SummaryTable DistributionTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "distributions";
  table.title = "Per-Rank Distributions";
  table.columns = {{"Metric", "metric", 22},    {"Ranks", "ranks", 6},
                   {"Min", "min", 10},          {"P50", "p50", 10},
                   {"P90", "p90", 10},          {"Max", "max", 10},
                   {"Outliers", "outliers", 8}, {"Outlier Ranks (vs P50)", "outlier_ranks", 22}};
  for (const MetricDistribution& metric : job.distributions) {
    auto value = [&](double v) { return metric.time ? Cell::Time(v) : Cell::Count(v); };
    table.AddRow({Cell::Text(metric.name), Cell::Count(metric.ranks), value(metric.min),
                  value(metric.p50), value(metric.p90), value(metric.max),
                  Cell::Count(metric.outliers.size()), Cell::Text(OutlierNames(job, metric))});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "Outlier: more than max(3 x 1.4826 x MAD, 1% of P50) from P50; the farthest five are named."};
  return table;
}

SummaryTable ClockTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "clock_offsets";
  table.title = "Clock Alignment per Rank";
  table.columns = {{"Rank", "rank", 6},
                   {"Host", "host", 10},
                   {"Aligned", "aligned", 7},
                   {"Offset", "offset_ns", 10},
                   {"Drift (ppm)", "drift_ppm", 11},
                   {"Residual", "residual_ns", 10},
                   {"Collectives", "collectives", 11}};
  std::vector<uint32_t> order(job.ranks.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto& clocks = job.clock.ranks;
  // The least trustworthy first: not aligned, then the largest residual (to the microsecond).
  auto residual_us = [&](uint32_t i) { return std::floor(clocks[i].residual_ns / 1000); };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (clocks[a].fitted != clocks[b].fitted) return !clocks[a].fitted;
    return residual_us(a) > residual_us(b);
  });
  for (uint32_t i : order) {
    table.AddRow({RankCell(job, i), HostCell(job, i), Cell::Text(clocks[i].fitted ? "yes" : "no"),
                  Cell::Time(clocks[i].offset_ns), Cell::Number(clocks[i].drift * 1e6, 3),
                  Cell::Time(clocks[i].residual_ns), Cell::Count(clocks[i].collectives)});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      absl::StrFormat(
          "Offset: this rank's clock minus %s's (at the middle of its fitted collectives);",
          job.ranks.empty() ? "the reference" : job.ranks[job.clock.reference].Label()),
      "Residual: median |aligned end - the collective's median aligned end|."};
  return table;
}

void LimitRows(size_t limit, SummaryTable* table) {
  if (limit == 0 || table->rows.size() <= limit) return;
  const size_t more = table->rows.size() - limit;
  table->rows.resize(limit);
  table->epilogue.push_back(
      absl::StrCat("... and ", more, " more row(s); --format json lists them all."));
}

}  // namespace

std::vector<SummaryTable> JobTables(const JobAnalysis& job, size_t row_limit) {
  std::vector<SummaryTable> tables = {
      JobSummaryTable(job),   StragglerTable(job),    LastArrivalTable(job), WorstStepTable(job),
      CommunicatorTable(job), DistributionTable(job), ClockTable(job)};
  for (SummaryTable& table : tables) LimitRows(row_limit, &table);
  return tables;
}

}  // namespace prof::analyzer
