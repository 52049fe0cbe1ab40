// Which trace files belong to which process, from their headers alone (a header is a few
// hundred bytes at the start of the file), with each process's files in window order.
// The input pipeline (analyzer/pipeline/) reads a process one window file at a time.
#ifndef PROF_ANALYZER_READ_PROCESS_FILES_H_
#define PROF_ANALYZER_READ_PROCESS_FILES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace prof::analyzer {

// The trace files of one process, in window order.
struct ProcessFiles {
  int32_t rank = -1;
  std::string host;
  int64_t pid = 0;
  std::vector<std::string> paths;
};

// Groups `files` by process from their headers alone, by (rank, host, pid); a file whose
// header cannot be read is listed in `unreadable`.
std::vector<ProcessFiles> GroupFilesByProcess(const std::vector<std::string>& files,
                                              std::vector<std::string>* unreadable);

// The two halves of GroupFilesByProcess, for profanalyze-mpi, whose MPI processes each
// read a slice of the headers and group them all alike: what one file's header says
// (or, when it cannot be read, why: `unreadable` non-empty)...
struct FileHeaderKey {
  std::string unreadable;
  int32_t rank = -1;
  std::string host;
  int64_t pid = 0;
  uint32_t window_index = 0;
};
FileHeaderKey ReadFileHeaderKey(const std::string& path);

// ...and the grouping of `files` by those keys (`keys` parallel to `files`).
std::vector<ProcessFiles> GroupFilesByKey(const std::vector<std::string>& files,
                                          const std::vector<FileHeaderKey>& keys,
                                          std::vector<std::string>* unreadable);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_READ_PROCESS_FILES_H_
