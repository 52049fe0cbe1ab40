// The summary command's pipeline: the trace files named by the PATH arguments grouped by
// process (host, pid, rank: from each file's header), each process analyzed one window
// file at a time in window order, processes in parallel on a small thread pool. Memory
// holds, per worker, one window's events plus the figures of its process (which grow
// with names, steps and live allocations, not with events); with fewer processes than
// threads, each worker also reads its next window ahead (two windows in memory).
#ifndef PROF_ANALYZER_CLI_ANALYZE_INPUTS_H_
#define PROF_ANALYZER_CLI_ANALYZE_INPUTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/read/process_files.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {

struct AnalyzedInputs {
  std::vector<ProcessReport> reports;  // by rank, then host and pid
  std::vector<std::string> unreadable;  // one message per file that could not be read
  size_t files_read = 0;
};

// Errors: a PATH that does not exist. Files that fail to read are listed in `unreadable`.
// `window` >= 0: only the files of that recording window (FileHeader.window_index) count.
absl::StatusOr<AnalyzedInputs> AnalyzeInputs(const std::vector<std::string>& paths, const SummaryOptions& options,
                                             const ViewSet& views, int threads = 0, int window = -1);

// The processes of `work` (grouped already, e.g. one MPI rank's share of a job), in that
// order; what AnalyzeInputs does after grouping.
AnalyzedInputs AnalyzeProcesses(const std::vector<ProcessFiles>& work, const SummaryOptions& options,
                                const ViewSet& views, int threads = 0, int window = -1);

// The PATH arguments as trace files, as ExpandInputPaths, except that a path that does not
// exist (or an empty folder) is one line in `unreadable`, not an error: a job's missing
// rank file is data quality (profanalyze map, profanalyze-mpi).
std::vector<std::string> ExpandEachPath(const std::vector<std::string>& paths, std::vector<std::string>* unreadable);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_ANALYZE_INPUTS_H_
