#include "analyzer/summary/table_query.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace prof::analyzer {
namespace {

// One top-level row with the inner rows (indent > 0) under it.
struct RowGroup {
  std::vector<Row> rows;
  const Row& head() const { return rows.front(); }
};

int ColumnIndex(const SummaryTable& table, const std::string& key) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return static_cast<int>(i);
  }
  return -1;
}

double LargestTotal(const Row& row) {
  double total = 0;
  for (const Cell& cell : row.cells) {
    if (cell.kind == Cell::Kind::kStats) total = std::max(total, cell.stats.total_ns);
  }
  return total;
}

// Adds `from`'s calls and times into `into` (ratios add: they share the denominator).
void MergeInto(const Row& from, Row* into) {
  for (size_t i = 0; i < into->cells.size() && i < from.cells.size(); ++i) {
    Cell& cell = into->cells[i];
    const Cell& other = from.cells[i];
    if (cell.kind == Cell::Kind::kCount) cell.value += other.value;
    if (cell.kind != Cell::Kind::kStats || other.kind != Cell::Kind::kStats) continue;
    TimeStats& stats = cell.stats;
    stats.max_ns = std::max(stats.max_ns, other.stats.max_ns);
    stats.min_ns = std::min(stats.min_ns, other.stats.min_ns);
    stats.total_ns += other.stats.total_ns;
    stats.ratio += other.stats.ratio;
  }
}

// Avg = Total / Calls once the rows are merged.
void SetAverages(int calls_column, Row* row) {
  if (calls_column < 0) return;
  const double calls = row->cells[calls_column].value;
  for (Cell& cell : row->cells) {
    if (cell.kind == Cell::Kind::kStats && calls > 0)
      cell.stats.avg_ns = cell.stats.total_ns / calls;
  }
}

std::vector<RowGroup> Aggregate(const SummaryTable& table, std::vector<RowGroup> groups) {
  const int calls_column = ColumnIndex(table, "calls");
  std::vector<RowGroup> merged;
  std::map<std::string, size_t> index_of;
  std::map<std::string, int> members;
  for (RowGroup& group : groups) {
    const std::string base = NameBase(group.head().cells[0].text);
    auto [it, fresh] = index_of.emplace(base, merged.size());
    ++members[base];
    if (fresh) {
      merged.push_back(std::move(group));
      continue;
    }
    RowGroup& into = merged[it->second];
    into.rows.resize(1);  // a merged row has no inner rows: they belong to different rows
    MergeInto(group.head(), &into.rows[0]);
  }
  for (RowGroup& group : merged) {
    Cell& name = group.rows[0].cells[0];
    const std::string base = NameBase(name.text);
    if (members[base] > 1) {
      name.text = base;
      name.kernel_name = false;
      SetAverages(calls_column, &group.rows[0]);
    }
  }
  return merged;
}

// The value `key` ("calls", "gpu_total", ...) of a row; 0 where the table lacks it.
double SortValue(const SummaryTable& table, const Row& row, const std::string& key) {
  if (key == "calls") {
    const int column = ColumnIndex(table, "calls");
    return column < 0 ? 0 : row.cells[column].value;
  }
  const size_t underscore = key.find('_');
  const int column = ColumnIndex(table, key.substr(0, underscore));
  if (column < 0 || row.cells[column].kind != Cell::Kind::kStats) return 0;
  const TimeStats& stats = row.cells[column].stats;
  const std::string field = key.substr(underscore + 1);
  if (field == "avg") return stats.avg_ns;
  if (field == "max") return stats.max_ns;
  if (field == "min") return stats.min_ns;
  return stats.total_ns;
}

void Order(const TableQuery& query, const SummaryTable& table, std::vector<RowGroup>* groups) {
  if (query.order_by.empty()) return;
  std::stable_sort(groups->begin(), groups->end(), [&](const RowGroup& a, const RowGroup& b) {
    if (query.order_by == "name") {
      const std::string& x = a.head().cells[0].text;
      const std::string& y = b.head().cells[0].text;
      return query.ascending ? x < y : x > y;
    }
    const double x = SortValue(table, a.head(), query.order_by);
    const double y = SortValue(table, b.head(), query.order_by);
    return query.ascending ? x < y : x > y;
  });
}

// Filters, merges and orders one run of consecutive data rows.
std::vector<Row> QueryRun(const TableQuery& query, const SummaryTable& table,
                          std::vector<Row> run) {
  std::vector<RowGroup> groups;
  for (Row& row : run) {
    if (row.indent == 0 || groups.empty()) groups.push_back({});
    groups.back().rows.push_back(std::move(row));
  }
  std::vector<RowGroup> kept;
  for (RowGroup& group : groups) {
    const Row& head = group.head();
    if (head.cells.empty()) continue;
    if (query.name && !std::regex_search(head.cells[0].text, *query.name)) continue;
    if (LargestTotal(head) < query.min_time_ns) continue;
    kept.push_back(std::move(group));
  }
  if (query.aggregate_by == AggregateBy::kBase) kept = Aggregate(table, std::move(kept));
  Order(query, table, &kept);
  std::vector<Row> rows;
  for (RowGroup& group : kept) {
    for (Row& row : group.rows) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

bool QueryApplies(const SummaryTable& table) {
  return table.key == "operator" || table.key == "kernel";
}

std::string NameBase(const std::string& name) {
  std::string base = absl::StartsWith(name, "void ") ? name.substr(5) : name;
  const size_t end = base.find_first_of("<(#");
  if (end != std::string::npos && end > 0) base.resize(end);
  return base;
}

absl::StatusOr<double> ParseDuration(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || value < 0)
    return absl::InvalidArgumentError(absl::StrCat("bad duration '", text, "'"));
  const std::string unit(end);
  if (unit == "s") return value * 1e9;
  if (unit == "ms") return value * 1e6;
  if (unit == "us") return value * 1e3;
  if (unit == "ns") return value;
  return absl::InvalidArgumentError(
      absl::StrCat("duration '", text, "' needs a unit: s, ms, us or ns"));
}

absl::StatusOr<TableQuery> ParseTableQuery(const std::string& name_regex,
                                           const std::string& min_time,
                                           const std::string& aggregate_by,
                                           const std::string& order_by) {
  TableQuery query;
  if (!name_regex.empty()) {
    try {
      query.name.emplace(name_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad --name regex '", name_regex, "': ", error.what()));
    }
  }
  if (!min_time.empty()) {
    absl::StatusOr<double> ns = ParseDuration(min_time);
    if (!ns.ok()) return ns.status();
    query.min_time_ns = *ns;
  }
  if (aggregate_by == "base") query.aggregate_by = AggregateBy::kBase;
  else if (!aggregate_by.empty() && aggregate_by != "name") {
    return absl::InvalidArgumentError(
        absl::StrCat("--aggregate-by takes name or base, not '", aggregate_by, "'"));
  }
  std::string key = order_by;
  if (!key.empty() && (key[0] == '+' || key[0] == '-')) {
    query.ascending = key[0] == '+';
    key = key.substr(1);
  }
  static const char* const kKeys[] = {"name",    "calls",     "cpu_total", "cpu_avg", "cpu_max",
                                      "cpu_min", "gpu_total", "gpu_avg",   "gpu_max", "gpu_min"};
  if (!key.empty() && std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--order-by takes [+|-]name, calls or {cpu,gpu}_{total,avg,max,min}, not '",
                     order_by, "'"));
  }
  query.order_by = key;
  return query;
}

void ApplyTableQuery(const TableQuery& query, SummaryTable* table) {
  if (query.empty() || !QueryApplies(*table)) return;
  std::vector<Row> rows;
  std::vector<Row> run;
  auto flush = [&] {
    for (Row& row : QueryRun(query, *table, std::move(run))) rows.push_back(std::move(row));
    run.clear();
  };
  for (Row& row : table->rows) {
    if (row.kind == Row::Kind::kData) {
      run.push_back(std::move(row));
      continue;
    }
    flush();
    rows.push_back(std::move(row));
  }
  flush();
  table->rows = std::move(rows);
}

}  // namespace prof::analyzer
