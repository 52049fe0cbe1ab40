// The summary command as a library call, for the Python extension (libprof._analysis):
// the same SummaryCommandOptions, AnalyzeSummary and RenderSummary that `profanalyze
// PATH...` runs (cli/summary_command.h), so every option of the command reaches Python by
// the same name and default, and text() prints what profanalyze prints for the same files
// and options. No Python here; python_module.cc converts the results.
//
//   SummaryCommandOptions options;
//   options.paths = {"/traces"};
//   absl::StatusOr<Session> session = AnalyzeSession(options);
//   std::string text = SessionText(*session, "ms", -1);
#ifndef PROF_ANALYZER_PYTHON_ANALYSIS_SESSION_H_
#define PROF_ANALYZER_PYTHON_ANALYSIS_SESSION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/cli/summary_command.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {

struct Session {
  SummaryCommandOptions options;  // as analyzed
  SummaryResult result;
  std::optional<SummaryTable> ranks;  // the cross-rank table (several processes)

  const std::vector<ProcessReport>& reports() const {
    return result.inputs.reports;
  }  // by rank, host, pid
  const std::vector<std::string>& unreadable() const { return result.inputs.unreadable; }
  size_t files_read() const { return result.inputs.files_read; }
};

// Errors: InvalidArgument for a bad option value (the message names it), NotFound for a
// path that does not exist, FailedPrecondition when no file could be read (the message
// holds every file's problem). Files that fail to read are listed in unreadable().
absl::StatusOr<Session> AnalyzeSession(const SummaryCommandOptions& options);

// The text (or JSON, with format "json") profanalyze writes to stdout for the session's
// options, with `time_unit` and `rank` (as --time-unit and --rank) where given.
// Errors: InvalidArgument for an unknown time unit.
absl::StatusOr<std::string> SessionText(const Session& session,
                                        std::optional<std::string> time_unit = std::nullopt,
                                        std::optional<int> rank = std::nullopt);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PYTHON_ANALYSIS_SESSION_H_
