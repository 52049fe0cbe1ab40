#include "analyzer/job/table_proto.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace prof::analyzer {
namespace {

// The last value of each enum: values above it come from a damaged or newer partial.
constexpr int kLastCellKind = static_cast<int>(Cell::Kind::kDash);
constexpr int kLastRowKind = static_cast<int>(Row::Kind::kTitle);
constexpr int kLastStyle = static_cast<int>(TableStyle::kPerf);
constexpr int kLastEnding = static_cast<int>(TableEnding::kBlank);

void CellToProto(const Cell& cell, prof::job::TableCell* out) {
  out->set_kind(static_cast<int>(cell.kind));
  out->set_text(cell.text);
  out->set_value(cell.value);
  out->set_total_ns(cell.stats.total_ns);
  out->set_avg_ns(cell.stats.avg_ns);
  out->set_max_ns(cell.stats.max_ns);
  out->set_min_ns(cell.stats.min_ns);
  out->set_ratio(cell.stats.ratio);
  out->set_only_total(cell.stats.only_total);
  out->set_decimals(cell.decimals);
  out->set_text_width(cell.text_width);
  out->set_kernel_name(cell.kernel_name);
}

Cell CellFromProto(const prof::job::TableCell& in) {
  Cell cell;
  cell.kind = static_cast<Cell::Kind>(in.kind());
  cell.text = in.text();
  cell.value = in.value();
  cell.stats = {in.total_ns(), in.avg_ns(), in.max_ns(), in.min_ns(), in.ratio(), in.only_total()};
  cell.decimals = in.decimals();
  cell.text_width = in.text_width();
  cell.kernel_name = in.kernel_name();
  return cell;
}

absl::Status CheckEnum(const char* field, int value, int last) {
  if (value >= 0 && value <= last) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("table ", field, " ", value, " is unknown to this profanalyze"));
}

// Every enum of `message` is one this build knows.
absl::Status CheckEnums(const prof::job::Table& message) {
  absl::Status status = CheckEnum("style", message.style(), kLastStyle);
  if (status.ok()) status = CheckEnum("ending", message.ending(), kLastEnding);
  for (const prof::job::TableRow& row : message.rows()) {
    if (status.ok()) status = CheckEnum("row kind", row.kind(), kLastRowKind);
    for (const prof::job::TableCell& cell : row.cells()) {
      if (status.ok()) status = CheckEnum("cell kind", cell.kind(), kLastCellKind);
    }
  }
  return status;
}

}  // namespace

prof::job::Table TableToProto(const SummaryTable& table) {
  prof::job::Table out;
  out.set_key(table.key);
  out.set_title(table.title);
  out.set_style(static_cast<int>(table.style));
  out.set_time_unit_line(table.time_unit_line);
  for (const std::string& line : table.preamble) out.add_preamble(line);
  for (const Column& column : table.columns) {
    prof::job::TableColumn* c = out.add_columns();
    c->set_header(column.header);
    c->set_key(column.key);
    c->set_min_width(column.min_width);
    c->set_grow(column.grow);
    c->set_text_hidden(column.text_hidden);
  }
  for (const Row& row : table.rows) {
    prof::job::TableRow* r = out.add_rows();
    r->set_kind(static_cast<int>(row.kind));
    r->set_indent(row.indent);
    for (const Cell& cell : row.cells) CellToProto(cell, r->add_cells());
    r->set_title(row.title);
    r->set_group(row.group);
  }
  for (const std::string& line : table.note) out.add_note(line);
  out.set_ending(static_cast<int>(table.ending));
  for (const std::string& line : table.epilogue) out.add_epilogue(line);
  return out;
}

absl::StatusOr<SummaryTable> TableFromProto(const prof::job::Table& message) {
  if (absl::Status status = CheckEnums(message); !status.ok()) return status;
  SummaryTable table;
  table.key = message.key();
  table.title = message.title();
  table.style = static_cast<TableStyle>(message.style());
  table.time_unit_line = message.time_unit_line();
  table.preamble.assign(message.preamble().begin(), message.preamble().end());
  for (const prof::job::TableColumn& c : message.columns())
    table.columns.push_back({c.header(), c.key(), c.min_width(), c.grow(), c.text_hidden()});
  table.rows.reserve(message.rows_size());
  for (const prof::job::TableRow& r : message.rows()) {
    Row& row = table.rows.emplace_back();
    row.kind = static_cast<Row::Kind>(r.kind());
    row.indent = r.indent();
    row.cells.reserve(r.cells_size());
    for (const prof::job::TableCell& cell : r.cells()) row.cells.push_back(CellFromProto(cell));
    row.title = r.title();
    row.group = r.group();
  }
  table.note.assign(message.note().begin(), message.note().end());
  table.ending = static_cast<TableEnding>(message.ending());
  table.epilogue.assign(message.epilogue().begin(), message.epilogue().end());
  return table;
}

}  // namespace prof::analyzer
