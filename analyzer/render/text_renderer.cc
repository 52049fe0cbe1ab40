#include "analyzer/render/text_renderer.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

double Divisor(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSeconds: return 1e9;
    case TimeUnit::kMilliseconds: return 1e6;
    case TimeUnit::kMicroseconds: return 1e3;
    case TimeUnit::kNanoseconds: return 1;
  }
  return 1;
}

std::string Time(double ns, TimeUnit unit) { return absl::StrFormat("%.2f", ns / Divisor(unit)); }

std::string StatsText(const TimeStats& stats, TimeUnit unit) {
  const std::string ratio = absl::StrFormat("%.2f", stats.ratio * 100);
  if (stats.only_total) return absl::StrCat(Time(stats.total_ns, unit), " / - / - / - / ", ratio);
  return absl::StrCat(Time(stats.total_ns, unit), " / ", Time(stats.avg_ns, unit), " / ",
                      Time(stats.max_ns, unit), " / ", Time(stats.min_ns, unit), " / ", ratio);
}

// Centres `text` over `width` with `fill`; the odd fill character goes on the right.
std::string Centre(const std::string& text, size_t width, char fill) {
  if (text.size() >= width) return text;
  const size_t pad = width - text.size();
  return std::string(pad / 2, fill) + text + std::string(pad - pad / 2, fill);
}

// Python's str.center(15): the odd character goes on the left when pad and width are odd.
std::string PythonCentre(const std::string& text, size_t width) {
  if (text.size() >= width) return text;
  const size_t pad = width - text.size();
  const size_t left = pad / 2 + (pad & width & 1);
  return std::string(left, ' ') + text + std::string(pad - left, ' ');
}

// The text renderer's view of a name: paddle's kernel display name, shortened to the
// column's width less the row's indent.
std::string TextCell(const Cell& cell, int indent) {
  std::string text = cell.kernel_name ? KernelDisplayName(cell.text) : cell.text;
  if (cell.text_width > 0)
    text = Shorten(text, static_cast<size_t>(std::max(4, cell.text_width - indent)));
  return text;
}

struct Layout {
  std::vector<size_t> widths;
  size_t line_length = 0;
};

Layout ComputeLayout(const SummaryTable& table, TimeUnit unit) {
  Layout layout;
  for (const Column& column : table.columns) {
    layout.widths.push_back(
        std::max<size_t>(column.min_width, column.grow ? column.header.size() : 0));
  }
  for (const Row& row : table.rows) {
    if (row.kind != Row::Kind::kData) continue;
    for (size_t i = 0; i < row.cells.size() && i < table.columns.size(); ++i) {
      if (!table.columns[i].grow) continue;
      const int indent = i == 0 ? row.indent : 0;
      const size_t size = FormatCell(row.cells[i], unit, indent).size() + indent;
      layout.widths[i] = std::max(layout.widths[i], size);
    }
  }
  for (size_t width : layout.widths) layout.line_length += width + 2;
  layout.line_length -= 2;
  return layout;
}

std::string Line(const std::vector<std::string>& cells, const Layout& layout) {
  std::string line;
  for (size_t i = 0; i < layout.widths.size(); ++i) {
    const std::string& cell = i < cells.size() ? cells[i] : std::string();
    line += cell;
    if (cell.size() < layout.widths[i]) line.append(layout.widths[i] - cell.size(), ' ');
    line += "  ";
  }
  return line + "\n";
}

std::string Separator(const Layout& layout) {
  std::string line;
  for (size_t width : layout.widths) absl::StrAppend(&line, std::string(width, '-'), "  ");
  return line + "\n";
}

std::string RowText(const Row& row, const Layout& layout, TimeUnit unit) {
  std::vector<std::string> cells;
  for (size_t i = 0; i < row.cells.size(); ++i) {
    std::string text = FormatCell(row.cells[i], unit, i == 0 ? row.indent : 0);
    if (i == 0) text = std::string(row.indent, ' ') + text;
    cells.push_back(std::move(text));
  }
  return Line(cells, layout);
}

std::string RenderPerf(const SummaryTable& table) {
  std::string out = Centre(table.title, 100, '=') + "\n";
  for (const std::string& line : table.preamble) absl::StrAppend(&out, line, "\n");
  std::string header = "|";
  for (const Column& column : table.columns)
    absl::StrAppend(&header, " ", PythonCentre(column.header, 15), " |");
  absl::StrAppend(&out, header, "\n");
  for (const Row& row : table.rows) {
    std::string line = "|";
    for (const Cell& cell : row.cells) {
      absl::StrAppend(&line, " ", PythonCentre(FormatCell(cell, TimeUnit::kSeconds), 15), " |");
    }
    absl::StrAppend(&out, line, "\n");
  }
  for (const std::string& line : table.epilogue) absl::StrAppend(&out, line, "\n");
  return out + "\n\n";
}

// `table` without its text_hidden columns (and their cells).
SummaryTable WithoutHiddenColumns(const SummaryTable& table) {
  SummaryTable shown = table;
  std::vector<bool> keep;
  shown.columns.clear();
  for (const Column& column : table.columns) {
    keep.push_back(!column.text_hidden);
    if (!column.text_hidden) shown.columns.push_back(column);
  }
  for (Row& row : shown.rows) {
    std::vector<Cell> cells;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      if (i >= keep.size() || keep[i]) cells.push_back(std::move(row.cells[i]));
    }
    row.cells = std::move(cells);
  }
  return shown;
}

bool HasHiddenColumns(const SummaryTable& table) {
  for (const Column& column : table.columns) {
    if (column.text_hidden) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<TimeUnit> ParseTimeUnit(const std::string& text) {
  if (text == "s") return TimeUnit::kSeconds;
  if (text == "ms") return TimeUnit::kMilliseconds;
  if (text == "us") return TimeUnit::kMicroseconds;
  if (text == "ns") return TimeUnit::kNanoseconds;
  return absl::InvalidArgumentError(absl::StrCat("unknown time unit '", text, "' (s, ms, us, ns)"));
}

const char* TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSeconds: return "s";
    case TimeUnit::kMilliseconds: return "ms";
    case TimeUnit::kMicroseconds: return "us";
    case TimeUnit::kNanoseconds: return "ns";
  }
  return "ns";
}

std::string FormatCell(const Cell& cell, TimeUnit unit, int indent) {
  switch (cell.kind) {
    case Cell::Kind::kText: return TextCell(cell, indent);
    case Cell::Kind::kCount:
    case Cell::Kind::kBytes: return absl::StrFormat("%.0f", cell.value);
    case Cell::Kind::kTime: return Time(cell.value, unit);
    case Cell::Kind::kRatio: return absl::StrFormat("%.2f", cell.value * 100);
    case Cell::Kind::kStats: return StatsText(cell.stats, unit);
    case Cell::Kind::kDashStats: return "- / - / - / - / -";
    case Cell::Kind::kNumber: return absl::StrFormat("%.*f", cell.decimals, cell.value);
    case Cell::Kind::kDash: return "-";
  }
  return "";
}

std::string RenderTable(const SummaryTable& table, TimeUnit unit) {
  if (HasHiddenColumns(table)) return RenderTable(WithoutHiddenColumns(table), unit);
  if (table.style == TableStyle::kPerf) return RenderPerf(table);
  const Layout layout = ComputeLayout(table, unit);
  std::string out = Centre(table.title, layout.line_length, '-') + "\n";
  if (table.time_unit_line) absl::StrAppend(&out, "Time unit: ", TimeUnitName(unit), "\n");
  for (const std::string& line : table.preamble) absl::StrAppend(&out, line, "\n");
  std::vector<std::string> headers;
  for (const Column& column : table.columns) headers.push_back(column.header);
  absl::StrAppend(&out, Separator(layout), Line(headers, layout), Separator(layout));
  for (const Row& row : table.rows) {
    switch (row.kind) {
      case Row::Kind::kData:
      case Row::Kind::kHeader: out += RowText(row, layout, unit); break;
      case Row::Kind::kSeparator: out += Separator(layout); break;
      case Row::Kind::kTitle:
        absl::StrAppend(&out, Centre(row.title, layout.line_length, '-'), "\n");
        break;
    }
  }
  if (table.ending != TableEnding::kBlank) out += Separator(layout);
  for (const std::string& line : table.epilogue) absl::StrAppend(&out, line, "\n");
  if (table.ending == TableEnding::kNote) {
    out += "Note:\n";
    for (const std::string& line : table.note) absl::StrAppend(&out, line, "\n");
    absl::StrAppend(&out, std::string(layout.line_length, '-'), "\n");
  }
  return out + "\n\n";
}

}  // namespace prof::analyzer
