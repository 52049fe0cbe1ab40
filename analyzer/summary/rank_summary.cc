// The cross-rank Distributed Summary (declared in report.h): one row per process with
// its step time, communication, computation and overlap, and the slowest rank named.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {
namespace {

double AverageStep(const ProcessReport& report) {
  return report.step_count ? static_cast<double>(report.total_ns) / report.step_count
                           : static_cast<double>(report.total_ns);
}

std::string Label(const ProcessReport& report) {
  return report.identity.rank >= 0 ? absl::StrCat("rank ", report.identity.rank)
                                   : absl::StrCat("pid ", report.identity.pid);
}

}  // namespace

SummaryTable RankSummary(const std::vector<ProcessReport>& reports) {
  SummaryTable table;
  table.key = "ranks";
  table.title = "Distributed Summary per Rank";
  table.columns = {{"Rank", "rank", 8},
                   {"Host", "host", 10},
                   {"Pid", "pid", 8},
                   {"Steps", "steps", 6},
                   {"Step Avg", "step_avg_ns", 10},
                   {"Total (T)", "total_ns", 10},
                   {"Communication", "communication_ns", 13},
                   {"Computation", "computation_ns", 11},
                   {"Overlap", "overlap_ns", 8},
                   {"Comm Ratio (%)", "communication_ratio_pct", 14}};
  size_t slowest = 0, fastest = 0;
  for (size_t i = 0; i < reports.size(); ++i) {
    const ProcessReport& report = reports[i];
    if (AverageStep(report) > AverageStep(reports[slowest])) slowest = i;
    if (AverageStep(report) < AverageStep(reports[fastest])) fastest = i;
    table.AddRow({Cell::Text(report.identity.rank >= 0 ? absl::StrCat(report.identity.rank) : "-"),
                  Cell::Text(report.identity.host), Cell::Count(report.identity.pid),
                  Cell::Count(report.step_count), Cell::Time(AverageStep(report)),
                  Cell::Time(report.total_ns), Cell::Time(report.communication_ns),
                  Cell::Time(report.computation_ns), Cell::Time(report.overlap_ns),
                  Cell::Ratio(SafeRatio(report.communication_ns, report.total_ns))});
  }
  if (!reports.empty()) {
    const ProcessReport& slow = reports[slowest];
    const double fast = AverageStep(reports[fastest]);
    table.epilogue.push_back(absl::StrFormat(
        "Slowest: %s (host %s, pid %d): average step %.3f ms, %.2f%% above the fastest (%s).",
        Label(slow), slow.identity.host, slow.identity.pid, AverageStep(slow) / 1e6,
        fast > 0 ? 100.0 * (AverageStep(slow) - fast) / fast : 0.0, Label(reports[fastest])));
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "Per process: its own step windows (T), and the union of its communication and",
      "computation inside them. Ranks are not aligned in time; each row is on its own clock."};
  return table;
}

}  // namespace prof::analyzer
