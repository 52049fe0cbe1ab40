#include "analyzer/report/rank_heat_map.h"

#include <algorithm>
#include <map>

namespace prof::analyzer::report {
namespace {

size_t CeilDiv(size_t a, size_t b) { return (a + b - 1) / b; }

// The columns of every recorded step number, `per` consecutive numbers a column; the
// column of each step number.
std::map<int64_t, size_t> Columns(const std::vector<ProcessReport>& reports, size_t max_columns,
                                  RankHeatMap* map) {
  std::map<int64_t, size_t> columns;  // step number -> column
  for (const ProcessReport& report : reports) {
    for (const StepRecord& step : report.collectives.steps) columns.emplace(step.number, 0);
  }
  map->steps_per_column =
      std::max<size_t>(1, CeilDiv(columns.size(), std::max<size_t>(1, max_columns)));
  size_t position = 0;
  for (auto& [number, column] : columns) {
    column = position++ / map->steps_per_column;
    if (column == map->columns.size()) map->columns.push_back({number, number});
    map->columns.back().last_step = number;
  }
  return columns;
}

}  // namespace

RankHeatMap BucketRankHeatMap(const std::vector<ProcessReport>& reports, size_t max_rows,
                              size_t max_columns) {
  RankHeatMap map;
  std::map<int64_t, size_t> columns = Columns(reports, max_columns, &map);
  if (reports.empty()) return map;
  map.bucket_size = CeilDiv(reports.size(), std::max<size_t>(1, max_rows));
  for (size_t first = 0; first < reports.size(); first += map.bucket_size) {
    HeatMapRow row;
    row.first = static_cast<uint32_t>(first);
    row.last = static_cast<uint32_t>(std::min(reports.size(), first + map.bucket_size) - 1);
    row.cells.resize(map.columns.size());
    for (uint32_t rank = row.first; rank <= row.last; ++rank) {
      for (const StepRecord& step : reports[rank].collectives.steps) {
        HeatMapCell& cell = row.cells[columns[step.number]];
        const double compute = static_cast<double>(step.ComputeNs());
        ++cell.steps;
        if (cell.present && compute <= cell.max_ns) continue;
        cell = {true, compute, rank, step.number, cell.steps};
      }
    }
    map.rows.push_back(std::move(row));
  }
  return map;
}

}  // namespace prof::analyzer::report
