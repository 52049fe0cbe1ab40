// Overview Summary: per event type, the calls and the union of its time (threads and
// streams merged, clipped to the step windows) over T; the model phases show the Model
// Summary's sums, as in paddle. CPU rows sorted by time, GPU rows in a fixed order.
#ifndef PROF_ANALYZER_SUMMARY_OVERVIEW_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_OVERVIEW_SUMMARY_H_

#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/distribution_summary.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

std::optional<SummaryTable> OverviewSummary(const AnalysisContext& context,
                                            const CommunicationFigures& communication);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_OVERVIEW_SUMMARY_H_
