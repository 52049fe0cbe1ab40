// Set-up Summary: step 0 of a run recorded with no schedule, shown apart from the per-step
// statistics. That step runs from the program's start (interpreter start, imports, model
// building, the first iteration) to the first step boundary, often a second or more against
// steps of tens of milliseconds, so counting it as a step skews the Model, Overview, Device
// and Perf Summaries (ProfileStep avg and max, Others). `profanalyze --include-setup`
// counts it as a step again (SummaryOptions::include_setup).
#ifndef PROF_ANALYZER_SUMMARY_SETUP_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_SETUP_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct SetupFigures {
  bool present = false;
  std::string step;          // "ProfileStep#0"
  uint64_t duration_ns = 0;  // host time of the step
  uint64_t kernel_ns = 0;    // kernels launched by calls that started inside it
  uint64_t kernels = 0;
};

// Takes the window's set-up step, if it has one (the first window of a process).
void AddSetupFigures(const AnalysisContext& window, SetupFigures* figures);

std::optional<SummaryTable> SetupSummary(const SetupFigures& figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_SETUP_SUMMARY_H_
