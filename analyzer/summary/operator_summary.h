// Operator Summary: every operator range (nested ones too) grouped by name, with CPU time
// and all device time launched inside (ratios over the group's sums, which double-count
// nesting, as in paddle). With op_detail: each operator's direct non-operator children
// ("inner" rows) and the device records launched directly by the operator or an inner
// range. Groups: all threads merged, or one per thread with thread_sep.
#ifndef PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

std::optional<SummaryTable> OperatorSummary(const AnalysisContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_
