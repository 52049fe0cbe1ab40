// Analyzer results as plain Python values (dicts, lists, str, int, float, None) for the
// extension module (python_module.cc). Every function here needs the GIL.
//
// A table row becomes a dict keyed by the columns' JSON keys (README, "JSON output") with
// the JSON renderer's values: times in ns, ratios in percent, None where the text prints
// '-', names in full (the text may cut them). A composite Total/Avg/Max/Min/Ratio cell
// becomes five keys, "<key>_total_ns", "_avg_ns", "_max_ns", "_min_ns", "_ratio_pct",
// so a list of rows is a ready DataFrame. Rows also carry "depth" and "group", as in JSON.
#ifndef PROF_ANALYZER_PYTHON_PYTHON_VALUES_H_
#define PROF_ANALYZER_PYTHON_PYTHON_VALUES_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "analyzer/model/trace_model.h"
#include "analyzer/summary/report.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// The data rows of `table`, one dict each.
pybind11::list TableRows(const SummaryTable& table);

// {"rank", "world_size", "host", "pid", "events", "files"} of one process.
pybind11::dict ProcessDict(const ProcessReport& report);

// The events of one window's model as a Python iterator: one dict at a time (the model's
// compact columns stay in C++), with "kind" saying which: "range", "api_call", "kernel",
// "memcpy", "memset", "synchronization", "nccl", "memory"; ranges, then API calls, device
// records, NCCL calls and memory records, each in the model's order.
class WindowEvents {
 public:
  explicit WindowEvents(TraceModel model);
  // The next event; raises StopIteration after the last.
  pybind11::object Next();

 private:
  std::shared_ptr<const TraceModel> model_;
  int column_ = 0;
  size_t next_ = 0;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PYTHON_PYTHON_VALUES_H_
