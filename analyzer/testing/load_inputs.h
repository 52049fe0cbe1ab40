// Reads every trace file named by the PATH arguments in parallel (a small thread pool),
// groups the files by process (host, pid, rank) and merges each group's windows into one
// model. Memory grows with the whole run, so the commands do not use it (they read one
// window file at a time: analyze_inputs.h); it is the reference the tests compare that
// windowed reading with, and the raw columns the golden tests read. Shows a progress line
// on stderr while reading when stderr is a terminal.
#ifndef PROF_ANALYZER_TESTING_LOAD_INPUTS_H_
#define PROF_ANALYZER_TESTING_LOAD_INPUTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

struct LoadedInputs {
  std::vector<TraceModel> processes;    // by rank, then host and pid
  std::vector<std::string> unreadable;  // one message per file that could not be read
  size_t files_read = 0;
};

// Errors: a PATH that does not exist. Files that fail to read are listed in `unreadable`.
absl::StatusOr<LoadedInputs> LoadInputs(const std::vector<std::string>& paths, int threads = 0);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_TESTING_LOAD_INPUTS_H_
