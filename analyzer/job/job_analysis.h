// The job view's analysis: every rank's collectives matched across ranks, clocks aligned
// on them, the stragglers and last arrivals named, per-rank metrics as distributions, and
// the ranks grouped by data-quality state (as NCCL RAS groups ranks that share a state).
// Reads only what each ProcessReport carries (ProcessReport::collectives); no second walk
// over any trace. Presentation is in job_tables.h.
//
//   JobAnalysis job = AnalyzeJob(reports);
//   job.ranks[job.stragglers.stragglers[0].rank_index].rank  // the worst straggler
#ifndef PROF_ANALYZER_JOB_JOB_ANALYSIS_H_
#define PROF_ANALYZER_JOB_JOB_ANALYSIS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/job/clock_fit.h"
#include "analyzer/job/collective_match.h"
#include "analyzer/job/rank_distributions.h"
#include "analyzer/job/straggler_analysis.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {

struct RankInfo {
  int32_t rank = -1;  // -1: the trace named no rank
  std::string host;
  int64_t pid = 0;

  std::string Label() const;  // "rank 11", or "pid 4242" without a rank
};

struct QualityGroup {
  std::string state;  // "complete", "missing from 1 collective(s)", ...
  std::vector<uint32_t> rank_indices;
};

struct JobAnalysis {
  std::vector<RankInfo> ranks;  // by rank index: the reports' order (rank, host, pid)
  size_t hosts = 0;
  CollectiveMatch match;
  ClockFit clock;
  StragglerAnalysis stragglers;
  std::vector<MetricDistribution> distributions;
  std::vector<QualityGroup> quality;  // largest group first
  size_t unreadable_files = 0;
};

JobAnalysis AnalyzeJob(const std::vector<ProcessReport>& reports, size_t unreadable_files = 0);

// What the job view computes from the ranks' collectives: the match, the clocks and the
// arrivals (StragglerAnalysis's collective half). In one process, CollectiveFiguresOf;
// over MPI, AnalyzeCollectivesSharded (sharded_collectives.h), by communicator.
struct CollectiveFigures {
  CollectiveMatch match;  // `collectives` may be left empty: `matched` counts them
  ClockFit clock;
  StragglerAnalysis arrivals;  // with its step half too where steps_analyzed
  bool steps_analyzed = false;
};
CollectiveFigures CollectiveFiguresOf(const std::vector<ProcessReport>& reports);

// AnalyzeJob with the collectives' figures given (one per report, in the reports' order):
// the reports' own collectives are not read, nor their steps where steps_analyzed.
JobAnalysis AnalyzeJobWith(const std::vector<ProcessReport>& reports, size_t unreadable_files,
                           CollectiveFigures figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_JOB_ANALYSIS_H_
