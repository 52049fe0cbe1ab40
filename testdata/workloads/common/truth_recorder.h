// The ground truth of one workload process: what it actually asked the (simulated) GPU
// to do, with exact durations from the simulator's own model, per step and in total.
// Tests compare what the profiler reports with this. The file format is documented in
// testdata/workloads/README.md; keys are stable.
//
// Thread-safe: every Record* takes a mutex (launch-bound loops should aggregate locally
// and record counts in bulk).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "testdata/workloads/common/json_writer.h"

namespace workloads {

struct DurationStat {
  uint64_t count = 0;
  uint64_t total_ns = 0;
  uint64_t min_ns = 0;
  uint64_t max_ns = 0;
  void Add(uint64_t duration_ns, uint64_t times);
};

struct KernelStat : DurationStat {
  std::string library;  // "cudart" (cudaLaunchKernel), "nccl", or "graph" (replayed)
};

struct TransferStat : DurationStat {
  uint64_t bytes = 0;
};

struct CollectiveStat {
  uint64_t count = 0;
  // nccl-tests' size S, the bytes algbw and busbw are computed from: count * element
  // size, times the communicator's rank count for AllGather, ReduceScatter, AlltoAll,
  // Gather and Scatter (whose count is per rank).
  uint64_t bytes = 0;
  uint64_t elements = 0;   // sum of the calls' count arguments
  uint64_t kernel_ns = 0;  // sum of the durations of the kernels the calls launched
  int ranks = 0;           // rank count of the communicator the calls ran on
};

// Everything recorded in one span of time (a step, outside steps, or the whole run).
struct TruthSection {
  std::map<std::string, KernelStat> kernels;
  std::map<std::string, TransferStat> memcpy_by_kind;  // "HtoD", "DtoH", "DtoD", "HtoH"
  TransferStat memset;
  std::map<std::string, CollectiveStat> collectives;  // by op: "AllReduce", ...
  std::map<std::string, uint64_t> nvtx_ranges;        // NVTX push/pop ranges by name
  std::map<std::string, uint64_t> user_ranges;        // prof_range_push by name
  std::map<std::string, uint64_t> marks;              // prof_mark by name
  void WriteJson(JsonWriter* json) const;
};

struct StepTruth {
  int64_t index = 0;
  int64_t num_samples = 0;
  uint64_t start_ns = 0;  // host CLOCK_MONOTONIC at the step's start and end
  uint64_t end_ns = 0;
  TruthSection section;
};

class TruthRecorder {
 public:
  TruthRecorder(std::string program, int rank, int world_size);

  void BeginStep();
  void EndStep(int64_t num_samples);

  void RecordKernel(const std::string& name, uint64_t duration_ns, const std::string& library,
                    uint64_t times = 1);
  void RecordCopy(const std::string& kind, uint64_t bytes, uint64_t duration_ns);
  void RecordMemset(uint64_t bytes, uint64_t duration_ns);
  void RecordCollective(const std::string& op, uint64_t elements, uint64_t bytes,
                        uint64_t kernel_ns, int ranks);
  void RecordNvtxRange(const std::string& name);
  void RecordUserRange(const std::string& name);
  void RecordMark(const std::string& name);

  // Free-form facts about the run ("batch_size": 32, ...), written under "args".
  void SetArg(const std::string& key, const std::string& value);
  // Extra top-level object written by the program itself (e.g. "graph"), as raw JSON.
  void SetExtraJson(const std::string& key, const std::string& raw_json);

  // Writes the JSON object; returns false (after saying why on stderr) on I/O errors.
  bool WriteFile(const std::string& path) const;
  std::string ToJson() const;

 private:
  // The section the next record goes to: the open step, or outside_steps.
  TruthSection& Current();
  void ForBoth(const std::function<void(TruthSection&)>& update);

  mutable std::mutex mutex_;
  std::string program_;
  int rank_;
  int world_size_;
  uint64_t start_ns_;
  std::map<std::string, std::string> args_;
  std::map<std::string, std::string> extra_json_;
  TruthSection totals_;
  TruthSection outside_steps_;
  std::vector<StepTruth> steps_;
  bool in_step_ = false;
};

// The truth file path: --truth PATH from argv if given, else $SIM_TRUTH, else "".
std::string TruthPathFromArgsOrEnv(int argc, char** argv);

// For multi-process programs: "{rank}" in `path` is replaced by `rank`; without it,
// ".rank<N>" goes before a ".json" suffix (or at the end).
std::string PerRankPath(const std::string& path, int rank);

// Demangled C++ name, or the name itself when it is not a mangled symbol.
std::string Demangle(const std::string& name);

}  // namespace workloads
