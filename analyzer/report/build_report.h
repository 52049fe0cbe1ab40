// From trace files to the HTML report: files grouped by process, each process read one
// window at a time by a RankCollector, processes by rank (then host and pid), and the
// figures rendered into the self-contained page.
#ifndef PROF_ANALYZER_REPORT_BUILD_REPORT_H_
#define PROF_ANALYZER_REPORT_BUILD_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/report/report_figures.h"

namespace prof::analyzer::report {

struct CollectedRun {
  std::vector<RankFigures> ranks;
  std::vector<std::string> unreadable;  // one message per file that could not be read
};

// Errors: a PATH that does not exist. Unreadable files are listed, not fatal.
absl::StatusOr<CollectedRun> CollectRun(const std::vector<std::string>& paths);

std::string RenderReport(const CollectedRun& run, const std::string& title);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_BUILD_REPORT_H_
