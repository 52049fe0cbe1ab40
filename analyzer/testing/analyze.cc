#include "analyzer/testing/analyze.h"

#include <cstdio>
#include <cstdlib>

#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer::testing {

TraceModel LoadOrDie(const std::string& path) {
  absl::StatusOr<TraceModel> model = LoadTraceFile(path);
  if (!model.ok()) {
    std::fprintf(stderr, "cannot load %s: %s\n", path.c_str(),
                 std::string(model.status().message()).c_str());
    std::abort();
  }
  return std::move(*model);
}

ProcessReport Analyze(const std::string& path, const SummaryOptions& options) {
  return BuildProcessReport(LoadOrDie(path), options, AllViews());
}

const SummaryTable* FindTable(const ProcessReport& report, const std::string& key) {
  for (const SummaryTable& table : report.tables) {
    if (table.key == key) return &table;
  }
  return nullptr;
}

const Row* FindRow(const SummaryTable& table, const std::string& name) {
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kData && !row.cells.empty() && row.cells[0].text == name)
      return &row;
  }
  return nullptr;
}

}  // namespace prof::analyzer::testing
