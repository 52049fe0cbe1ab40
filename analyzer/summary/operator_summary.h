// Operator Summary: every operator range (nested ones too) grouped by name, with CPU time
// and all device time launched inside (ratios over the group's sums, which double-count
// nesting, as in paddle). With op_detail: each operator's direct non-operator children
// ("inner" rows) and the device records launched directly by the operator or an inner
// range. Groups: all threads merged, or one per thread with thread_sep.
#ifndef PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_

#include <cstdint>
#include <map>
#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct OperatorInnerItem {
  NameId name = 0;
  DurationStats cpu;
  DurationStats gpu;
  NamedItems<NamedItem> devices;
};

struct OperatorItem {
  NameId name = 0;
  DurationStats cpu;
  DurationStats gpu;
  NamedItems<OperatorInnerItem> inners;
  NamedItems<NamedItem> devices;
};

// By thread id with thread_sep, otherwise one group (0).
using OperatorFigures = std::map<uint64_t, NamedItems<OperatorItem>>;

// Adds one window's operators.
void AddOperatorFigures(const AnalysisContext& window, OperatorFigures* figures);
std::optional<SummaryTable> OperatorSummary(const OperatorFigures& figures, const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_
