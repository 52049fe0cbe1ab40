// Memory Summary of the allocations the agent recorded (cudaMalloc*, cudaHostAlloc, ...):
// per place (GPU<d> or Host) the counts, bytes, peak of live bytes; the high-water mark of
// each step; and the blocks still alive at the end of the trace (leak candidates, largest
// first, with call stacks where recorded). Frees are paired with allocations by address.
#ifndef PROF_ANALYZER_SUMMARY_MEMORY_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_MEMORY_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

struct MemoryPlace {
  uint64_t allocations = 0;
  uint64_t frees = 0;
  uint64_t allocated_bytes = 0;
  uint64_t freed_bytes = 0;
  uint64_t peak_bytes = 0;
  uint64_t live_bytes = 0;  // at the end
};

struct MemoryFigures {
  std::map<std::string, MemoryPlace> places;
  // Per step (parallel to context.steps), per place: the high-water mark.
  std::vector<std::map<std::string, uint64_t>> step_high_water;
  std::vector<uint32_t> alive_at_end;  // indices into model.memory, largest first
  uint64_t frees_without_allocation = 0;
};

MemoryFigures ComputeMemoryFigures(const AnalysisContext& context);

// The place tables; empty when no allocation was recorded.
std::vector<SummaryTable> MemorySummaries(const AnalysisContext& context, const MemoryFigures& figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_MEMORY_SUMMARY_H_
