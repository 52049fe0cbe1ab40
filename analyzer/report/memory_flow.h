// Memory over time, per place (GPU<d> or Host), from the allocation records: live bytes
// after every change, each step's peak and end, and the allocations themselves laid out
// first-fit in a per-place address space (MegEngine's memory_flow.svg: time across, bytes
// up, a rectangle per block), of which the largest are kept for drawing. Blocks alive at
// the end of one window are carried into the next, as the Memory Summary does; frees are
// paired with allocations by the one rule of model/live_memory.h.
//
// Not thread-safe; one builder per process, windows added in time order.
#ifndef PROF_ANALYZER_REPORT_MEMORY_FLOW_H_
#define PROF_ANALYZER_REPORT_MEMORY_FLOW_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyzer/model/live_memory.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/report/report_figures.h"

namespace prof::analyzer::report {

class MemoryFlowBuilder {
 public:
  static constexpr size_t kMaxBlocks = 300;   // drawn per place, the largest
  static constexpr size_t kMaxPoints = 4000;  // live-bytes points per place

  // `window_steps`: the window's steps (AddStepFigures), in start order; `first_step`
  // their index in the process's step list.
  void AddWindow(const TraceModel& window, const std::vector<StepFigures>& window_steps,
                 size_t first_step);
  // Ends the blocks still live at `end_ns` and thins the points.
  std::map<std::string, MemoryPlaceFlow> Finish(uint64_t end_ns, size_t step_count) &&;
  uint64_t frees_without_allocation() const { return live_.unmatched_frees(); }

 private:
  struct Place {
    MemoryPlaceFlow flow;
    uint64_t live_bytes = 0;
    std::map<uint64_t, uint64_t> occupied;  // offset -> bytes of the live blocks
  };
  Place& PlaceOf(const std::string& name, size_t step_count);
  void Apply(const MemoryRecord& record, size_t step_count);
  void StartBlock(int32_t place, const MemoryRecord& record, size_t step_count);
  void EndBlock(const LiveBlock& ended, uint64_t time_ns, bool live_at_end);
  void KeepBlock(Place* place, MemoryBlock block);

  std::map<std::string, Place> places_;
  LiveMemory live_;                                  // which blocks are alive, by the one rule
  absl::flat_hash_map<uint64_t, uint64_t> offsets_;  // address -> the live block's offset
};

// Lowest offset at which `bytes` fit between the `occupied` blocks (offset -> bytes).
uint64_t FirstFitOffset(const std::map<uint64_t, uint64_t>& occupied, uint64_t bytes);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_MEMORY_FLOW_H_
