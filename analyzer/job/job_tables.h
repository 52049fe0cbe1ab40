// The job view as SummaryTables (presentation as data; text and JSON render the same
// cells): the summary with its headline lines and the ranks grouped by data-quality state,
// the straggler leaderboard, the last arrivals, the worst steps, the collective skew per
// communicator, the per-rank metric distributions with outlier ranks named, and the clock
// offsets. `row_limit` > 0 keeps that many rows per table and says how many more there
// are (the text view, bounded whatever the rank count); 0 keeps every row (JSON).
#ifndef PROF_ANALYZER_JOB_JOB_TABLES_H_
#define PROF_ANALYZER_JOB_JOB_TABLES_H_

#include <cstddef>
#include <vector>

#include "analyzer/job/job_analysis.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// Rows shown per table in the text view.
inline constexpr size_t kJobTextRows = 10;

// Keys: "summary", "stragglers", "last_arrivals", "worst_steps", "communicators",
// "distributions", "clock_offsets".
std::vector<SummaryTable> JobTables(const JobAnalysis& job, size_t row_limit);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_JOB_TABLES_H_
