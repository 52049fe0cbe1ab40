// The report's rank x step heat map for a job of many ranks, kept legible at any rank
// count: consecutive ranks (in the job view's order) share a row, at most `max_rows`
// rows, and each cell shows the bucket's largest step compute (the step's time outside
// collectives, StepRecord::ComputeNs: the figure the job view's straggler analysis ranks)
// and which rank it is. Columns are step numbers, as the job view's steps.
//
//   RankHeatMap map = BucketRankHeatMap(job_reports, kHeatMapRows);
//   map.rows[b].cells[s].rank_index  // the bucket's slowest rank at map.steps[s]
#ifndef PROF_ANALYZER_REPORT_RANK_HEAT_MAP_H_
#define PROF_ANALYZER_REPORT_RANK_HEAT_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyzer/summary/report.h"

namespace prof::analyzer::report {

struct HeatMapCell {
  bool present = false;     // false: no rank of the bucket recorded that step
  double max_ns = 0;        // the bucket's largest compute at that step
  uint32_t rank_index = 0;  // whose (index into the reports)
  uint32_t ranks = 0;       // ranks of the bucket that recorded the step
};

struct HeatMapRow {
  uint32_t first = 0;  // rank indices, inclusive
  uint32_t last = 0;
  std::vector<HeatMapCell> cells;  // parallel to RankHeatMap::steps
};

struct RankHeatMap {
  std::vector<int64_t> steps;  // step numbers, ascending
  size_t bucket_size = 1;      // ranks per row (the last row may hold fewer)
  std::vector<HeatMapRow> rows;
};

// `reports` in the job view's order (JobReportsOf); `max_rows` >= 1.
RankHeatMap BucketRankHeatMap(const std::vector<ProcessReport>& reports, size_t max_rows);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_RANK_HEAT_MAP_H_
