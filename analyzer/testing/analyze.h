// Test support: load a written trace and look up tables and rows of its report.
#ifndef PROF_ANALYZER_TESTING_ANALYZE_H_
#define PROF_ANALYZER_TESTING_ANALYZE_H_

#include <string>

#include "analyzer/model/trace_model.h"
#include "analyzer/summary/report.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer::testing {

// Aborts the test binary when the file cannot be read (the tests write it themselves).
TraceModel LoadOrDie(const std::string& path);

ProcessReport Analyze(const std::string& path, const SummaryOptions& options = {});

// nullptr when absent.
const SummaryTable* FindTable(const ProcessReport& report, const std::string& key);
// The first data row whose first cell's text is `name`; nullptr when absent.
const Row* FindRow(const SummaryTable& table, const std::string& name);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_ANALYZE_H_
