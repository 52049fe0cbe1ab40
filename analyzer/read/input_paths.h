// Turns the PATH arguments (files or folders) into the list of trace files to read.
// Folders are read one level deep, in name order, taking the *.pb files (a run folder
// also holds logs); a file named on the command line is read whatever its name. A path
// that does not exist is an error.
#ifndef PROF_ANALYZER_READ_INPUT_PATHS_H_
#define PROF_ANALYZER_READ_INPUT_PATHS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace prof::analyzer {

absl::StatusOr<std::vector<std::string>> ExpandInputPaths(const std::vector<std::string>& paths);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_READ_INPUT_PATHS_H_
