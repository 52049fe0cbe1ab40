// Kernels and operators by GPU time under their full names (the summary tables shorten
// names to paddle's column widths; the report keeps them whole, so every name is unique).
#ifndef PROF_ANALYZER_REPORT_TOP_ITEMS_H_
#define PROF_ANALYZER_REPORT_TOP_ITEMS_H_

#include <map>
#include <string>

#include "analyzer/model/trace_model.h"
#include "analyzer/report/report_figures.h"
#include "analyzer/tree/range_tree.h"

namespace prof::analyzer::report {

// Every kernel run of the window, by demangled name.
void AddKernelTimes(const TraceModel& window, std::map<std::string, NamedTime>* kernels);

// Every operator range of the window: calls, wall time, and the kernel time launched
// inside its subtree (the range tree's rule, as the Operator Summary); nested operators
// of the same work each count it, as paddle's table does.
void AddOperatorTimes(const TraceModel& window, const RangeTree& tree,
                      std::map<std::string, NamedTime>* operators);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_TOP_ITEMS_H_
