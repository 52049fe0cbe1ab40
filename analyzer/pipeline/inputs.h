// The first step of every command: the PATH arguments (files or folders) expanded into
// trace files (read/input_paths.h) and grouped by process from their headers
// (read/process_files.h). What cannot be opened is one line each in `unreadable`, in the
// order met, so every command reports its inputs the same way.
//
//   absl::StatusOr<Inputs> inputs = OpenInputs({"/traces"});
//   RunProcesses(*inputs, RunOptions{}, factory);  // run_processes.h
#ifndef PROF_ANALYZER_PIPELINE_INPUTS_H_
#define PROF_ANALYZER_PIPELINE_INPUTS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/read/process_files.h"

namespace prof::analyzer {

struct Inputs {
  std::vector<ProcessFiles> processes;  // by rank, then host and pid; windows in order
  std::vector<std::string> unreadable;  // one message per input whose header could not be read
  size_t FileCount() const;
};

// Errors: a PATH that does not exist, or a folder without trace files (the user's typo
// stops the command before anything is read).
absl::StatusOr<Inputs> OpenInputs(const std::vector<std::string>& paths);

// As OpenInputs, except that a missing PATH (or an empty folder) is one line in
// `unreadable`, not an error: a job's missing rank file is data quality
// (profanalyze map, profanalyze-mpi).
Inputs OpenEachInput(const std::vector<std::string>& paths);

// OpenEachInput's first half: the trace files the PATHs name, in order; a PATH that cannot
// be expanded is one line in `unreadable`. Its second half is GroupFilesByProcess
// (read/process_files.h), which profanalyze-mpi splits across its MPI processes.
std::vector<std::string> ExpandEachInput(const std::vector<std::string>& paths,
                                         std::vector<std::string>* unreadable);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PIPELINE_INPUTS_H_
