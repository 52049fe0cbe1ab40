// The job view's first table: headline lines (the job, the clock alignment, the straggler
// and the last arrival named) and the ranks grouped by data-quality state, members listed
// as NCCL RAS lists them (only for the groups other than the largest, at most ten names).
#ifndef PROF_ANALYZER_JOB_JOB_SUMMARY_TABLE_H_
#define PROF_ANALYZER_JOB_JOB_SUMMARY_TABLE_H_

#include "analyzer/job/job_analysis.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

SummaryTable JobSummaryTable(const JobAnalysis& job);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_JOB_SUMMARY_TABLE_H_
