// Queries over the rows of the Operator and Kernel tables (MindSpore's op_analyse and
// MegEngine's profile_analyze offer the same): keep the rows whose name matches a regular
// expression and whose time reaches a minimum, merge rows by the base of their names, and
// order them by a column. Applied to finished SummaryTables, so every renderer (text,
// JSON) shows the same rows. An operator row keeps its inner rows (op detail) while it is
// not merged with others.
//
// Pure functions; thread-safe.
#ifndef PROF_ANALYZER_SUMMARY_TABLE_QUERY_H_
#define PROF_ANALYZER_SUMMARY_TABLE_QUERY_H_

#include <optional>
#include <regex>
#include <string>

#include "absl/status/statusor.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

enum class AggregateBy { kNone, kBase };

struct TableQuery {
  std::optional<std::regex> name;  // rows whose name contains a match (std::regex_search)
  double min_time_ns = 0;          // rows whose largest Total (CPU or GPU) reaches this
  AggregateBy aggregate_by = AggregateBy::kNone;
  std::string order_by;  // "" (keep), "name", "calls", "cpu_total", "gpu_avg", ...
  bool ascending = false;

  bool empty() const {
    return !name && min_time_ns <= 0 && aggregate_by == AggregateBy::kNone && order_by.empty();
  }
};

// The tables a query applies to.
bool QueryApplies(const SummaryTable& table);  // "operator" and "kernel"

// Builds a query from the command line's words. Errors: a bad regex, duration or key.
absl::StatusOr<TableQuery> ParseTableQuery(const std::string& name_regex,
                                           const std::string& min_time,
                                           const std::string& aggregate_by,
                                           const std::string& order_by);

// "1.5ms", "200us", "2s", "500ns" -> ns. Errors: no number or no unit.
absl::StatusOr<double> ParseDuration(const std::string& text);

// "void cutlass::Kernel<...>(...)" -> "cutlass::Kernel"; "aten::add_" -> "aten::add_": the
// name up to its first '<', '(' or '#', without a leading "void ".
std::string NameBase(const std::string& name);

// Filters, merges and orders the data rows of `table` (titles and separators stay).
void ApplyTableQuery(const TableQuery& query, SummaryTable* table);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_TABLE_QUERY_H_
