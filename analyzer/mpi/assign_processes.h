// Which MPI process analyzes which traced process. Every MPI process reads the headers of
// its slice of the input files (SliceOf) and sizes them; the records (FileSeen) are
// gathered by all, grouped alike (read/process_files.h: GroupFilesByKey) and assigned
// largest first (the sum of a process's file sizes), each to the least-loaded worker so
// far (ties: the lowest worker), so one large rank file does not leave the others idle at
// the end, and no MPI process reads every header. No MPI here; the driver is mpi_main.cc.
//
//   std::vector<std::vector<ProcessFiles>> shares = AssignLargestFirst(processes, sizes, 4);
#ifndef PROF_ANALYZER_MPI_ASSIGN_PROCESSES_H_
#define PROF_ANALYZER_MPI_ASSIGN_PROCESSES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/read/process_files.h"

namespace prof::analyzer {

// Worker `worker`'s slice of `count` files: [first, last), contiguous and in order, the
// slices' sizes differing by at most one, so the gathered records keep the files' order.
struct Slice {
  size_t first = 0;
  size_t last = 0;
};
Slice SliceOf(size_t count, size_t worker, size_t workers);

// One file as its worker saw it: its header's key and its size (0 when it cannot be sized).
struct FileSeen {
  FileHeaderKey key;
  uint64_t bytes = 0;
};
FileSeen SeeFile(const std::string& path);

// A slice's records as bytes and back (appended to `seen`); false when the bytes end early
// or are damaged (what was whole is kept).
std::string EncodeFilesSeen(const std::vector<FileSeen>& seen);
bool DecodeFilesSeen(const std::string& bytes, std::vector<FileSeen>* seen);

// The sum of each process's file sizes; `seen` parallel to `files`.
std::vector<uint64_t> ProcessBytes(const std::vector<ProcessFiles>& processes,
                                   const std::vector<std::string>& files,
                                   const std::vector<FileSeen>& seen);

// `workers` shares (some may be empty); `bytes` parallel to `processes`.
std::vector<std::vector<ProcessFiles>> AssignLargestFirst(
    const std::vector<ProcessFiles>& processes, const std::vector<uint64_t>& bytes, size_t workers);

// A list of paths as bytes (each NUL-terminated) and back: the input list rank 0 expands.
std::string EncodePaths(const std::vector<std::string>& paths);
std::vector<std::string> DecodePaths(const std::string& bytes);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MPI_ASSIGN_PROCESSES_H_
