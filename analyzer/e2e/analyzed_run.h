// Test support: the analyzer's figures for a folder of recorded traces, taken from the
// tables a user reads (Kernel, Model, NCCL Summary) and, where no table shows a number
// per item (copies by direction, kernels by full demangled name), from the event model
// the tables are computed from. Golden tests compare these with the workload's truth.
#ifndef PROF_ANALYZER_E2E_ANALYZED_RUN_H_
#define PROF_ANALYZER_E2E_ANALYZED_RUN_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/e2e/workload_truth.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer::e2e {

struct CountAndTime {
  uint64_t count = 0;
  uint64_t total_ns = 0;
  double ratio = 0;  // share of all kernel time (fraction); Kernel Summary rows only
};

// One Model Summary row.
struct PhaseRow {
  uint64_t calls = 0;
  double gpu_total_ns = 0;
  double gpu_max_ns = 0;
  double gpu_min_ns = 0;
  double gpu_ratio = 0;
};

// NCCL Summary rows of one collective, all size buckets together.
struct CollectiveRows {
  double time_ns = 0;             // sum of the rows' time totals
  double busbw_time_product = 0;  // sum of BusBW x time: busbw = this / time_ns
  double algbw_time_product = 0;
  std::set<int> ranks;  // the rows' Ranks column
};

// Memory Manipulation Summary rows of copy and memset calls ("cudaMemcpyAsync HtoD").
struct CopyRow {
  uint64_t calls = 0;
  double gpu_total_ns = 0;
  uint64_t bytes = 0;
  double gb_per_s = 0;  // 0 where the table shows '-'
};

struct ProcessFigures {
  int rank = -1;
  std::map<std::string, CountAndTime> kernel_rows;        // Kernel Summary, by display name
  std::map<std::string, CountAndTime> kernels;            // model: by full demangled name
  std::map<std::string, CountAndBytes> memcpy_by_kind;    // model: "HtoD", "DtoH", ...
  std::map<std::string, CountAndBytes> collectives;       // NCCL Summary, size buckets summed
  std::map<std::string, CollectiveRows> collective_rows;  // NCCL Summary, by CollectiveKey
  std::map<std::string, std::set<uint64_t>> comm_hashes;  // model: communicators by CollectiveKey
  std::map<std::string, PhaseRow> model_rows;             // Model Summary, by row name
  std::map<std::string, CopyRow> copy_rows;  // Memory Manipulation Summary, by row name
  uint64_t step_count = 0;
  double setup_kernel_ns = 0;  // Set-up Summary's GPU Kernel Time (0 without one)
  ProcessReport report;
};

// Reads every trace in `folder` with the analyzer's own loader (files grouped by
// process, by rank) and builds all tables with `options`.
absl::StatusOr<std::vector<ProcessFigures>> AnalyzeFolder(const std::string& folder,
                                                          const SummaryOptions& options = {});

// A user's reading of one table (a test failure when it is not there): the table with
// JSON key `key`, the cell of column `key` in `row`, the top-level data row named `name`.
const SummaryTable& TableOf(const ProcessFigures& figures, const std::string& key);
const Cell& CellOf(const SummaryTable& table, const Row& row, const std::string& key);
const Row& TopRow(const SummaryTable& table, const std::string& name);

// The Kernel Summary row name of a kernel the truth lists by its demangled name.
std::string KernelRowName(const std::string& demangled);

// "AllReduce" (truth) and "ALL_REDUCE" (NCCL Summary) both give "ALLREDUCE".
std::string CollectiveKey(const std::string& name);

}  // namespace prof::analyzer::e2e

#endif  // PROF_ANALYZER_E2E_ANALYZED_RUN_H_
