// Operator Summary: every operator range (nested ones too) grouped by name, with CPU time
// and all device time launched inside (ratios over the group's sums, which double-count
// nesting, as in paddle). With op_detail: each operator's direct non-operator children
// ("inner" rows) and the device records launched directly by the operator or an inner
// range. Groups: all threads merged, or one per thread with thread_sep.
//
// Also, per row: self CPU / self GPU time (self_time.h; text columns with --self, always
// in JSON), FLOPs summed over the calls (operator_flops.h; shown when some operator has
// them) and the achieved TFLOPS (FLOPs / GPU time), the calling Python lines (source,
// with op_detail) and, with group_by_shape, one row per (name, input shapes). When FLOPs
// exist the table ends with paddle's FLOPs printout (forward operators only).
#ifndef PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

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
  NameId name = 0;     // the row's key: op_name, or a (name, shapes) key with group_by_shape
  NameId op_name = 0;  // the operator's name
  NameId shapes = 0;   // group_by_shape: the input shapes of every call in the row
  DurationStats cpu;
  DurationStats gpu;
  DurationStats self_cpu;
  DurationStats self_gpu;
  double flops = 0;          // summed over the calls
  double forward_flops = 0;  // calls outside Backward / Optimization (FLOPs printout)
  double forward_cpu_ns = 0;
  std::vector<NameId> sources;  // distinct calling lines, first seen first (a few)
  NamedItems<OperatorInnerItem> inners;
  NamedItems<NamedItem> devices;
};

struct OperatorFigures {
  // By thread id with thread_sep, otherwise one group (0).
  std::map<uint64_t, NamedItems<OperatorItem>> groups;
  // group_by_shape: row key of each (name, shapes); keys are dense from 1.
  std::map<std::pair<NameId, NameId>, NameId> shape_keys;
  // FLOPs of one call by (name, shapes), so each distinct pair is parsed once.
  std::map<std::pair<NameId, NameId>, double> flops_of_call;
  bool any_flops = false;
  bool any_source = false;
};

// Adds one window's operators.
void AddOperatorFigures(const AnalysisContext& window, OperatorFigures* figures);
std::optional<SummaryTable> OperatorSummary(const OperatorFigures& figures,
                                            const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_OPERATOR_SUMMARY_H_
