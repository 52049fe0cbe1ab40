#include "analyzer/report/rank_heat_map.h"

#include <algorithm>
#include <map>

namespace prof::analyzer::report {

RankHeatMap BucketRankHeatMap(const std::vector<ProcessReport>& reports, size_t max_rows) {
  RankHeatMap map;
  std::map<int64_t, size_t> columns;  // step number -> column
  for (const ProcessReport& report : reports) {
    for (const StepRecord& step : report.collectives.steps) columns.emplace(step.number, 0);
  }
  for (auto& [number, column] : columns) {
    column = map.steps.size();
    map.steps.push_back(number);
  }
  if (reports.empty()) return map;
  const size_t rows = std::max<size_t>(1, max_rows);
  map.bucket_size = (reports.size() + rows - 1) / rows;
  for (size_t first = 0; first < reports.size(); first += map.bucket_size) {
    HeatMapRow row;
    row.first = static_cast<uint32_t>(first);
    row.last = static_cast<uint32_t>(std::min(reports.size(), first + map.bucket_size) - 1);
    row.cells.resize(map.steps.size());
    for (uint32_t rank = row.first; rank <= row.last; ++rank) {
      for (const StepRecord& step : reports[rank].collectives.steps) {
        HeatMapCell& cell = row.cells[columns[step.number]];
        const double compute = static_cast<double>(step.ComputeNs());
        ++cell.ranks;  // a rank recording one step number twice counts twice
        if (cell.present && compute <= cell.max_ns) continue;
        cell = {true, compute, rank, cell.ranks};
      }
    }
    map.rows.push_back(std::move(row));
  }
  return map;
}

}  // namespace prof::analyzer::report
