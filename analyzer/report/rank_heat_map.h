// The report's rank x step heat map for a job of many ranks, kept legible at any rank
// count: consecutive ranks (in the job view's order) share a row, at most `max_rows`
// rows, and each cell shows the bucket's largest step compute (the step's time outside
// collectives, StepRecord::ComputeNs: the figure the job view's straggler analysis ranks)
// and which rank it is. Columns are step numbers, as the job view's steps; past
// `max_columns` recorded step numbers, consecutive ones share a column too.
//
//   RankHeatMap map = BucketRankHeatMap(job_reports, kHeatMapRows, kHeatMapColumns);
//   map.rows[b].cells[c].rank_index  // the bucket's slowest rank in map.columns[c]
#ifndef PROF_ANALYZER_REPORT_RANK_HEAT_MAP_H_
#define PROF_ANALYZER_REPORT_RANK_HEAT_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyzer/summary/report.h"

namespace prof::analyzer::report {

struct HeatMapCell {
  bool present = false;     // false: no rank of the bucket recorded a step of the column
  double max_ns = 0;        // the largest compute of a rank of the bucket in a step of the column
  uint32_t rank_index = 0;  // whose (index into the reports)
  int64_t step = 0;         // in which step
  uint32_t steps = 0;       // (rank, step) records of the cell
};

struct HeatMapRow {
  uint32_t first = 0;  // rank indices, inclusive
  uint32_t last = 0;
  std::vector<HeatMapCell> cells;  // parallel to RankHeatMap::columns
};

struct HeatMapColumn {
  int64_t first_step = 0;  // recorded step numbers, inclusive
  int64_t last_step = 0;
};

struct RankHeatMap {
  std::vector<HeatMapColumn> columns;  // ascending
  size_t steps_per_column = 1;         // recorded step numbers per column (the last may hold fewer)
  size_t bucket_size = 1;              // ranks per row (the last row may hold fewer)
  std::vector<HeatMapRow> rows;
};

// `reports` in the job view's order (JobReportsOf); `max_rows`, `max_columns` >= 1.
RankHeatMap BucketRankHeatMap(const std::vector<ProcessReport>& reports, size_t max_rows,
                              size_t max_columns);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_RANK_HEAT_MAP_H_
