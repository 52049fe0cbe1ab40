// From trace files to the HTML report: files grouped by process, each process read one
// window at a time by a RankCollector, processes by rank (then host and pid), and the
// figures rendered into the self-contained page. Each process also gives its part of the
// job view (a JobPartial, as `profanalyze --views job` builds it). Past kJobLayoutRanks
// processes the report is a job's (job_layout.h): memory stays flat in the ranks, since
// each rank keeps only its slim figures (identity, files, steps, quality, the summaries'
// figures) and the charted ranks (at most kMaxChartedRanks) are read again, whole.
#ifndef PROF_ANALYZER_REPORT_BUILD_REPORT_H_
#define PROF_ANALYZER_REPORT_BUILD_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/report/job_layout.h"
#include "analyzer/report/report_figures.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer::report {

struct CollectedRun {
  // With a job layout, whole only for its charted ranks; the others without kernels,
  // operators and memory.
  std::vector<RankFigures> ranks;
  std::vector<std::string> unreadable;  // one message per file that could not be read
  prof::job::JobPartial job;            // every process read, and the unreadable lines
  std::optional<JobLayout> layout;      // past kJobLayoutRanks processes
};

// Errors: a PATH that does not exist. Unreadable files are listed, not fatal.
absl::StatusOr<CollectedRun> CollectRun(const std::vector<std::string>& paths);

// With a job layout, its page (only the charted ranks' figures); else every rank charted.
std::string RenderReport(const CollectedRun& run, const std::string& title);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_BUILD_REPORT_H_
