// The summary command's pipeline as a library call, for the Python extension
// (libprof._analysis): the same AnalyzeInputs, RankSummary and RenderReportsText that
// `profanalyze PATH...` runs, so summary() prints what profanalyze prints for the same
// files and options. No Python here; python_module.cc converts the results.
//
//   SessionOptions options;
//   options.paths = {"/traces"};
//   absl::StatusOr<Session> session = AnalyzeSession(options);
//   std::string text = SessionText(*session, TimeUnit::kMilliseconds);
#ifndef PROF_ANALYZER_PYTHON_ANALYSIS_SESSION_H_
#define PROF_ANALYZER_PYTHON_ANALYSIS_SESSION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/render/text_renderer.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {

// The summary command's options (summary_command.h), by the same names and defaults.
struct SessionOptions {
  std::vector<std::string> paths;
  std::string sorted_by = "CPUTotal";  // CPUTotal CPUAvg CPUMax CPUMin GPUTotal ... GPUMin
  std::string views;                   // comma list as --views; empty: every table
  bool op_detail = true;
  bool thread_sep = false;
  int top = 0;
  int perf_skip = -1;
  int threads = 0;
};

struct Session {
  std::vector<ProcessReport> reports;  // by rank, then host and pid
  std::optional<SummaryTable> ranks;   // the cross-rank table (several processes)
  std::vector<std::string> unreadable;  // one message per file that could not be read
  size_t files_read = 0;
};

// Errors: InvalidArgument for a bad option value (the message names it), NotFound for a
// path that does not exist, FailedPrecondition when no file could be read (the message
// holds every file's problem). Files that fail to read are listed in `unreadable`.
absl::StatusOr<Session> AnalyzeSession(const SessionOptions& options);

// The text profanalyze writes to stdout; `only_rank` >= 0 as --rank.
std::string SessionText(const Session& session, TimeUnit unit, int only_rank = -1);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PYTHON_ANALYSIS_SESSION_H_
