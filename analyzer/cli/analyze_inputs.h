// The summary command as a consumer of the input pipeline (pipeline/): the trace files
// named by the PATH arguments grouped by process (host, pid, rank: from each file's
// header), each process analyzed one window file at a time in window order, processes in
// parallel on a small thread pool. Memory
// holds, per worker, one window's events plus the figures of its process (which grow
// with names, steps and live allocations, not with events); with fewer processes than
// threads, each worker also reads its next window ahead (two windows in memory).
#ifndef PROF_ANALYZER_CLI_ANALYZE_INPUTS_H_
#define PROF_ANALYZER_CLI_ANALYZE_INPUTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/pipeline/inputs.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {

struct AnalyzedInputs {
  std::vector<ProcessReport> reports;   // by rank, then host and pid
  std::vector<std::string> unreadable;  // one message per file that could not be read
  size_t files_read = 0;
};

// Errors: a PATH that does not exist. Files that fail to read are listed in `unreadable`.
// `window` >= 0: only the files of that recording window (FileHeader.window_index) count.
absl::StatusOr<AnalyzedInputs> AnalyzeInputs(const std::vector<std::string>& paths,
                                             const SummaryOptions& options, const ViewSet& views,
                                             int threads = 0, int window = -1);

// The processes of `inputs` (opened already, e.g. one MPI rank's share of a job), in that
// order; what AnalyzeInputs does after opening, with the inputs' unreadable lines first.
AnalyzedInputs AnalyzeProcesses(const Inputs& inputs, const SummaryOptions& options,
                                const ViewSet& views, int threads = 0, int window = -1);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_ANALYZE_INPUTS_H_
