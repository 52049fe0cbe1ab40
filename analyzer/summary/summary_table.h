// The value every summary returns and every renderer takes: a titled table of typed
// cells (times in ns, ratios as fractions, counts, bytes, text), with paddle's layout
// choices (indents, '-' cells, composite Total/Avg/Max/Min/Ratio cells, the ending) kept
// as data so text and JSON show the same numbers. No formatting happens here.
#ifndef PROF_ANALYZER_SUMMARY_SUMMARY_TABLE_H_
#define PROF_ANALYZER_SUMMARY_SUMMARY_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace prof::analyzer {

// A composite "Total / Avg / Max / Min / Ratio(%)" value.
struct TimeStats {
  double total_ns = 0;
  double avg_ns = 0;
  double max_ns = 0;
  double min_ns = 0;
  double ratio = 0;         // fraction; printed x100
  bool only_total = false;  // Avg/Max/Min print as '-' (paddle's Others row)
};

struct Cell {
  enum class Kind { kText, kCount, kTime, kRatio, kStats, kDashStats, kBytes, kNumber, kDash };
  Kind kind = Kind::kText;
  std::string text;
  double value = 0;  // count, ns, fraction, bytes or number
  TimeStats stats;
  int decimals = 2;  // kNumber only
  // Names are data, widths are presentation: a kText cell holds the whole name (JSON shows
  // it); only the text renderer shortens it to `text_width - row indent` characters
  // (paddle's column widths; 0: never) and, for `kernel_name`, to paddle's kernel display
  // name (the argument list dropped) first.
  int text_width = 0;
  bool kernel_name = false;

  static Cell Text(std::string text);
  // A whole name the text renderer shortens to `width` characters (see text_width).
  static Cell Name(std::string name, int width, bool kernel_name = false);
  static Cell Count(double count);
  static Cell Time(double ns);
  static Cell Ratio(double fraction);
  static Cell Stats(const TimeStats& stats);
  static Cell DashStats();  // "- / - / - / - / -"
  static Cell Bytes(double bytes);
  static Cell Number(double value, int decimals);
  static Cell Dash();
};

struct Column {
  std::string header;
  std::string key;  // JSON key
  int min_width = 0;
  bool grow = true;          // widen to the longest cell; otherwise cells overflow to the right
  bool text_hidden = false;  // in JSON only (e.g. Self columns without --self)
};

struct Row {
  enum class Kind { kData, kSeparator, kHeader, kTitle };
  Kind kind = Kind::kData;
  int indent = 0;           // spaces before the first cell
  std::vector<Cell> cells;  // kData and kHeader
  std::string title;        // kTitle: centred line such as "Thread: All threads merged"
  std::string group;        // JSON: which part of the table the row belongs to
};

enum class TableEnding {
  kNote,       // separator, "Note:" lines, a full-width rule, two blank lines
  kSeparator,  // separator, two blank lines
  kBlank,      // two blank lines
};

enum class TableStyle { kPaddle, kPerf };

struct SummaryTable {
  std::string key;    // JSON key, e.g. "kernel"
  std::string title;  // e.g. "Kernel Summary"
  TableStyle style = TableStyle::kPaddle;
  bool time_unit_line = true;
  std::vector<std::string> preamble;  // lines between the title (or time unit) and header
  std::vector<Column> columns;
  std::vector<Row> rows;
  std::vector<std::string> note;
  TableEnding ending = TableEnding::kSeparator;
  std::vector<std::string> epilogue;  // lines after the table (before the blank lines)

  Row& AddRow(std::vector<Cell> cells, int indent = 0);
  void AddSeparator();
  void AddTitle(std::string title);
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_SUMMARY_TABLE_H_
