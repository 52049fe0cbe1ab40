// What the HTML report draws, per rank, as plain numbers and full names: the figures the
// summary tables do not keep (one row per step, memory over time, every kernel name
// whole). Collected window by window by RankCollector, written as JSON by figures_json,
// drawn by report.js. Times are host-clock nanoseconds; bytes are bytes.
#ifndef PROF_ANALYZER_REPORT_REPORT_FIGURES_H_
#define PROF_ANALYZER_REPORT_REPORT_FIGURES_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prof::analyzer::report {

// Dataloader, Forward, Backward, Optimization, Others: the order of the stacked bars.
inline constexpr int kPhaseCount = 5;
extern const std::array<const char*, kPhaseCount> kPhaseNames;

struct StepFigures {
  int64_t number = 0;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  // Wall time covered by each phase's ranges inside the step (any thread, overlaps
  // merged); Others is the rest of the step.
  std::array<uint64_t, kPhaseCount> phase_ns{};
  // Time during which any device activity (kernel, copy, memset) of the process ran,
  // clipped to the step; idle is duration_ns - gpu_busy_ns.
  uint64_t gpu_busy_ns = 0;
};

// Totals of one name (a kernel or an operator), full and unshortened.
struct NamedTime {
  uint64_t calls = 0;
  uint64_t gpu_ns = 0;
  uint64_t cpu_ns = 0;  // operators only
  uint64_t max_ns = 0;  // kernels: the longest single run
  uint64_t min_ns = 0;
};

// One allocation drawn in the memory-flow chart: [start, end) at a first-fit offset in
// the place's address space, so live blocks never overlap (MegEngine's memory_flow).
struct MemoryBlock {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;  // the free, or the end of the trace when still live
  bool live_at_end = false;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t address = 0;
  std::string stack;  // innermost frame first; often empty
};

struct MemoryPoint {
  uint64_t time_ns = 0;
  uint64_t bytes = 0;  // live bytes after the change at time_ns
};

// One memory place: "GPU<d>" or "Host" (pageable or pinned host allocations).
struct MemoryPlaceFlow {
  std::vector<MemoryPoint> live;    // every change (thinned when very long)
  std::vector<MemoryBlock> blocks;  // the largest blocks (kMaxBlocks), by start
  uint64_t peak_bytes = 0;
  uint64_t allocations = 0;
  std::vector<uint64_t> step_peak_bytes;  // parallel to RankFigures::steps
  std::vector<uint64_t> step_end_bytes;
};

// One place's memory at a step's end from the samples (Chunk.memory_samples): a device's
// caching-allocator figures, or the host's resident set size. The step's last sample, as
// the Memory Summary's memory_allocator_steps table takes it; `recorded` is false for a step
// with no sample of the place.
struct SampledStep {
  bool recorded = false;
  uint64_t allocated = 0;  // devices only
  uint64_t reserved = 0;
  uint64_t peak = 0;  // the allocator's high-water mark so far
  uint64_t rss = 0;   // Host only
};

struct QualityFigures {
  std::map<std::string, uint64_t> losses;  // records the agent could not write
  std::map<std::string, uint64_t> unmatched_device_records;
  uint64_t chunks_missing = 0;
  uint64_t bytes_skipped = 0;
  uint64_t files_without_last_chunk = 0;
  uint64_t malformed = 0;  // blocks, columns, references, definitions
  uint64_t frees_without_allocation = 0;
  std::vector<std::string> reader_issues;
};

struct RankFigures {
  int32_t rank = -1;
  std::string host;
  int64_t pid = 0;
  std::vector<std::string> files;
  std::vector<StepFigures> steps;
  std::map<std::string, NamedTime> kernels;
  std::map<std::string, NamedTime> operators;
  std::map<std::string, MemoryPlaceFlow> memory;
  // "GPU<d>" or "Host" -> one entry per step (parallel to steps); empty when no sample.
  std::map<std::string, std::vector<SampledStep>> sampled_memory;
  QualityFigures quality;
  // From the summaries: kernel busy / T per GPU, and the Distributed Summary's figures.
  std::map<std::string, double> gpu_utilization;  // "GPU0" -> fraction
  uint64_t total_ns = 0;
  uint64_t communication_ns = 0;
  uint64_t computation_ns = 0;
  uint64_t overlap_ns = 0;
};

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_REPORT_FIGURES_H_
