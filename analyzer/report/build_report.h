// From trace files to the HTML report: files grouped by process, each process read one
// window at a time by a RankCollector, processes by rank (then host and pid), and the
// figures rendered into the self-contained page. Each process also gives its part of the
// job view (a JobPartial, as `profanalyze --views job` builds it), which the report of a
// job of many ranks shows (job_layout.h).
#ifndef PROF_ANALYZER_REPORT_BUILD_REPORT_H_
#define PROF_ANALYZER_REPORT_BUILD_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/report/report_figures.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer::report {

struct CollectedRun {
  std::vector<RankFigures> ranks;
  std::vector<std::string> unreadable;  // one message per file that could not be read
  prof::job::JobPartial job;            // every process read, and the unreadable lines
};

// Errors: a PATH that does not exist. Unreadable files are listed, not fatal.
absl::StatusOr<CollectedRun> CollectRun(const std::vector<std::string>& paths);

// Past kJobLayoutRanks processes, the job layout (job_layout.h); else every rank charted.
std::string RenderReport(const CollectedRun& run, const std::string& title);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_BUILD_REPORT_H_
