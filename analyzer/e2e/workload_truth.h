// Test support: a workload's ground-truth JSON (testdata/workloads/README.md, schema
// prof-sim-truth/1) read into typed sections, so golden tests can compare the analyzer's
// tables with what the simulated program really did. Only the parts the analyzer's
// tables show are read: kernels, copies, memsets, collectives, NVTX and user ranges, steps.
//
//   absl::StatusOr<WorkloadTruth> truth = ReadWorkloadTruth("/tmp/train.json");
//   const TruthSection recorded = truth->StepRange(2, 6);   // steps 2..5
#ifndef PROF_ANALYZER_E2E_WORKLOAD_TRUTH_H_
#define PROF_ANALYZER_E2E_WORKLOAD_TRUTH_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace prof::analyzer::e2e {

struct KernelTruth {
  std::string demangled;  // the truth's `demangled` field (its key is the mangled name)
  uint64_t count = 0;
  uint64_t total_ns = 0;
};

struct CountAndBytes {
  uint64_t count = 0;
  uint64_t bytes = 0;
  bool operator==(const CountAndBytes& other) const {
    return count == other.count && bytes == other.bytes;
  }
};

// A collective's truth beyond count and bytes: its kernels' time and its communicator.
struct CollectiveTruth {
  uint64_t kernel_ns = 0;
  int ranks = 0;
};

// One SECTION of the truth: a step, outside_steps, or totals.
struct TruthSection {
  std::map<std::string, KernelTruth> kernels;  // by the name CUPTI reports
  uint64_t kernel_total_ns = 0;
  std::map<std::string, CountAndBytes> memcpy_by_kind;  // "HtoD", "DtoH", ...
  std::map<std::string, uint64_t> memcpy_ns_by_kind;    // the copies' simulated device time
  CountAndBytes memset;
  uint64_t memset_ns = 0;
  std::map<std::string, CountAndBytes> collectives;           // "AllReduce", ...
  std::map<std::string, CollectiveTruth> collective_kernels;  // the same keys
  std::map<std::string, uint64_t> nvtx_ranges;                // by name
  std::map<std::string, uint64_t> user_ranges;

  // Adds `other` name by name (sections of consecutive steps add up to their span).
  void Add(const TruthSection& other);
};

struct StepTruth {
  int64_t num_samples = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  TruthSection section;
};

struct WorkloadTruth {
  std::string program;
  int rank = 0;
  int world_size = 1;
  TruthSection totals;
  TruthSection outside_steps;
  std::vector<StepTruth> steps;

  // The sum of steps [first, end).
  TruthSection StepRange(size_t first, size_t end) const;
};

// Errors: the file cannot be read, is not JSON, or is not prof-sim-truth/1.
absl::StatusOr<WorkloadTruth> ReadWorkloadTruth(const std::string& path);

}  // namespace prof::analyzer::e2e

#endif  // PROF_ANALYZER_E2E_WORKLOAD_TRUTH_H_
