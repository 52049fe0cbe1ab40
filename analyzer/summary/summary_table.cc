#include "analyzer/summary/summary_table.h"

#include <utility>

namespace prof::analyzer {
namespace {

Cell Make(Cell::Kind kind, double value) {
  Cell cell;
  cell.kind = kind;
  cell.value = value;
  return cell;
}

}  // namespace

Cell Cell::Text(std::string text) {
  Cell cell;
  cell.text = std::move(text);
  return cell;
}
Cell Cell::Name(std::string name, int width, bool kernel_name) {
  Cell cell = Text(std::move(name));
  cell.text_width = width;
  cell.kernel_name = kernel_name;
  return cell;
}
Cell Cell::Count(double count) { return Make(Kind::kCount, count); }
Cell Cell::Time(double ns) { return Make(Kind::kTime, ns); }
Cell Cell::Ratio(double fraction) { return Make(Kind::kRatio, fraction); }
Cell Cell::Stats(const TimeStats& stats) {
  Cell cell = Make(Kind::kStats, stats.total_ns);
  cell.stats = stats;
  return cell;
}
Cell Cell::DashStats() { return Make(Kind::kDashStats, 0); }
Cell Cell::Bytes(double bytes) { return Make(Kind::kBytes, bytes); }
Cell Cell::Number(double value, int decimals) {
  Cell cell = Make(Kind::kNumber, value);
  cell.decimals = decimals;
  return cell;
}
Cell Cell::Dash() { return Make(Kind::kDash, 0); }

Row& SummaryTable::AddRow(std::vector<Cell> cells, int indent) {
  Row row;
  row.cells = std::move(cells);
  row.indent = indent;
  rows.push_back(std::move(row));
  return rows.back();
}

void SummaryTable::AddSeparator() {
  Row row;
  row.kind = Row::Kind::kSeparator;
  rows.push_back(std::move(row));
}

void SummaryTable::AddTitle(std::string text) {
  Row row;
  row.kind = Row::Kind::kTitle;
  row.title = std::move(text);
  rows.push_back(std::move(row));
}

}  // namespace prof::analyzer
