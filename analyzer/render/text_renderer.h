// Renders SummaryTables as paddle prints them: centred title bar, "Time unit" line,
// fixed or growing columns separated by two spaces (every row ends with two spaces),
// composite Total / Avg / Max / Min / Ratio(%) cells, Note blocks; and the Perf Summary
// in its '=' banner and '|' layout. No analysis here.
#ifndef PROF_ANALYZER_RENDER_TEXT_RENDERER_H_
#define PROF_ANALYZER_RENDER_TEXT_RENDERER_H_

#include <string>

#include "absl/status/statusor.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

enum class TimeUnit { kSeconds, kMilliseconds, kMicroseconds, kNanoseconds };
absl::StatusOr<TimeUnit> ParseTimeUnit(const std::string& text);
const char* TimeUnitName(TimeUnit unit);

// One cell as text (times converted to `unit`, ratios in percent, 2 decimals).
// `indent`: the row's indent, taken from a shortened name's width (Cell::text_width).
std::string FormatCell(const Cell& cell, TimeUnit unit, int indent = 0);

std::string RenderTable(const SummaryTable& table, TimeUnit unit);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_TEXT_RENDERER_H_
