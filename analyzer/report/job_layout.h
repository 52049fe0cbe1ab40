// The report of a job of many ranks (more than kJobLayoutRanks processes), kept fast and
// legible at 10,000 ranks and still one file: the cross-rank section is the job view
// (analyzer/job: stragglers and last arrivals worst first, the data quality grouped, the
// worst steps, skew, distributions, clocks; kJobTextRows rows per table, the rest
// counted), the rank x step heat map is aggregated into at most kHeatMapRows rows and
// kHeatMapColumns columns (rank_heat_map.h), and only the ranks worth a look (charted
// ranks: the job view's stragglers and last arrivals, the slowest and fastest average
// step, rank 0, the step-compute and waiting outliers; at most kMaxChartedRanks) have
// their per-rank figures embedded. Every other rank is still in the heat map and the
// tables, and the page says how many ranks have no charts of their own. Up to
// kJobLayoutRanks processes the report is as before: every rank charted.
//
//   if (UsesJobLayout(processes)) layout = BuildJobLayout(run.job, run.ranks);
#ifndef PROF_ANALYZER_REPORT_JOB_LAYOUT_H_
#define PROF_ANALYZER_REPORT_JOB_LAYOUT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "analyzer/job/job_analysis.h"
#include "analyzer/report/rank_heat_map.h"
#include "analyzer/report/report_figures.h"
#include "analyzer/summary/summary_table.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer::report {

inline constexpr size_t kJobLayoutRanks = 32;
inline constexpr size_t kHeatMapRows = 128;
inline constexpr size_t kHeatMapColumns = 200;
inline constexpr size_t kMaxChartedRanks = 32;
// How many of each list become charted ranks (before the bound above).
inline constexpr size_t kChartedStragglers = 8;
inline constexpr size_t kChartedLastArrivals = 8;
inline constexpr size_t kChartedOutliers = 4;  // per distribution (step compute, waiting)

struct ChartedRank {
  size_t run_index = 0;              // into the report's ranks (CollectedRun::ranks)
  std::vector<std::string> reasons;  // why it is charted, in the order found
};

struct JobLayout {
  size_t processes = 0;              // the report's ranks
  JobAnalysis job;                   // rank indices below are job.ranks'
  std::vector<SummaryTable> tables;  // JobTables(job, kJobTextRows)
  std::vector<ChartedRank> charted;  // the worst straggler first
  RankHeatMap heat_map;
};

// `processes`: found among the inputs, whether readable or not.
bool UsesJobLayout(size_t processes);

// The job view of `job` (as `profanalyze --views job` computes it) and what the page
// shows of it; `ranks` (the report's, in its order) for the charted ranks' indices.
JobLayout BuildJobLayout(const prof::job::JobPartial& job, const std::vector<RankFigures>& ranks);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_JOB_LAYOUT_H_
