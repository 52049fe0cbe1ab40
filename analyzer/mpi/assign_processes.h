// Which MPI process analyzes which traced process: largest first (the sum of its files'
// sizes), each to the least-loaded worker so far (ties: the lowest worker), so one large
// rank file does not leave the others idle at the end. No MPI here; the driver is
// mpi_main.cc.
//
//   std::vector<std::vector<ProcessFiles>> shares = AssignLargestFirst(processes, sizes, 4);
#ifndef PROF_ANALYZER_MPI_ASSIGN_PROCESSES_H_
#define PROF_ANALYZER_MPI_ASSIGN_PROCESSES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/read/process_files.h"

namespace prof::analyzer {

// The sum of each process's file sizes (a file that cannot be sized counts 0).
std::vector<uint64_t> ProcessBytes(const std::vector<ProcessFiles>& processes);

// `workers` shares (some may be empty); `bytes` parallel to `processes`.
std::vector<std::vector<ProcessFiles>> AssignLargestFirst(
    const std::vector<ProcessFiles>& processes, const std::vector<uint64_t>& bytes, size_t workers);

// A share as bytes and back, for sending it to its worker: each path NUL-terminated, an
// empty string after each process's paths.
std::string EncodeShare(const std::vector<ProcessFiles>& share);
std::vector<ProcessFiles> DecodeShare(const std::string& bytes);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MPI_ASSIGN_PROCESSES_H_
