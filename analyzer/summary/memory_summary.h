// Memory Summary of the allocations the agent recorded (cudaMalloc*, cudaHostAlloc, ...):
// per place (GPU<d> or Host) the counts, bytes, peak of live bytes; the high-water mark of
// each step; and the blocks still alive at the end of the trace (leak candidates, largest
// first, with call stacks where recorded). Frees are paired with allocations by address by
// the one rule of model/live_memory.h, also across windows: the blocks alive at the end of
// one window are carried into the next.
#ifndef PROF_ANALYZER_SUMMARY_MEMORY_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_MEMORY_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/model/live_memory.h"
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

struct StepHighWater {
  std::string step;                        // the step's name
  std::map<std::string, uint64_t> places;  // place -> high-water mark inside the step
};

// Fed the windows of a process in time order. State grows with the live blocks, the
// places and the steps, not with the allocations.
struct MemoryFigures {
  std::map<std::string, MemoryPlace> places;
  std::vector<StepHighWater> step_high_water;  // every step of every window, in order
  LiveMemory live;  // the blocks alive, paired by model/live_memory.h's rule

  // The live blocks, largest first (then oldest first).
  std::vector<const MemoryRecord*> AliveBlocks() const;
};

// Adds one window's allocations and frees; windows must come in time order.
void AddMemoryFigures(const AnalysisContext& window, MemoryFigures* figures);

// The place tables; empty when no allocation was recorded.
std::vector<SummaryTable> MemorySummaries(const MemoryFigures& figures,
                                          const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_MEMORY_SUMMARY_H_
