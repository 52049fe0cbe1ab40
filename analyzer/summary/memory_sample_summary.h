// Memory Summary, the framework's view: the caching allocator's allocated / reserved / peak
// bytes per device at the end of each step (PyTorch's torch.cuda.memory_stats, sampled by
// the Python helper at step boundaries through prof_memory_sample), the process's host RSS
// beside them (read by the agent at each recorded step boundary), and the step in which each
// place reached its peak. cudaMalloc/cudaFree alone cannot show this: a caching allocator
// reserves large blocks once and reuses them (memory_summary.h shows those calls).
//
// A device sample belongs to the step that holds its time; a host sample is stamped with the
// boundary that ended its step (the step's end time, exclusive), so it is looked up 1 ns
// earlier. A step's figures are its last sample's. `peak` is the allocator's high-water mark
// since the program started (or reset it): the peak step is the step in which it last rose.
#ifndef PROF_ANALYZER_SUMMARY_MEMORY_SAMPLE_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_MEMORY_SAMPLE_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct StepMemory {
  // "ProfileStep#3"; "ProfileStep#0 (set-up)" (setup_summary.h); "(no steps)" in a
  // stepless trace.
  std::string step;
  std::map<int32_t, MemorySample> last;  // device (-1: host) -> the step's last sample
};

// Where a place's peak was reached.
struct MemoryPeak {
  uint64_t bytes = 0;  // device: the allocator's peak; host: the largest RSS sampled
  std::string step;
  bool at_first_sample = false;  // already there at the first sample: maybe reached earlier
};

// Fed the windows of a process in time order; grows with steps, not samples.
struct MemorySampleFigures {
  std::vector<StepMemory> steps;        // steps with at least one sample, in time order
  std::map<int32_t, MemoryPeak> peaks;  // by device (-1: host)
};

void AddMemorySampleFigures(const AnalysisContext& window, MemorySampleFigures* figures);

// Two tables (per step, and the peaks); none when no sample was recorded.
std::vector<SummaryTable> MemorySampleSummaries(const MemorySampleFigures& figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_MEMORY_SAMPLE_SUMMARY_H_
