// Memory over time, per place (GPU<d> or Host), from the allocation records: live bytes
// after every change, each step's peak and end, and the allocations themselves laid out
// first-fit in a per-place address space (MegEngine's memory_flow.svg: time across, bytes
// up, a rectangle per block), of which the largest are kept for drawing. Blocks alive at
// the end of one window are carried into the next, as the Memory Summary does.
//
// Not thread-safe; one builder per process, windows added in time order.
#ifndef PROF_ANALYZER_REPORT_MEMORY_FLOW_H_
#define PROF_ANALYZER_REPORT_MEMORY_FLOW_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/model/trace_model.h"
#include "analyzer/report/report_figures.h"

namespace prof::analyzer::report {

class MemoryFlowBuilder {
 public:
  static constexpr size_t kMaxBlocks = 300;   // drawn per place, the largest
  static constexpr size_t kMaxPoints = 4000;  // live-bytes points per place

  // `window_steps`: the window's steps (AddStepFigures), in start order; `first_step`
  // their index in the process's step list.
  void AddWindow(const TraceModel& window, const std::vector<StepFigures>& window_steps, size_t first_step);
  // Ends the blocks still live at `end_ns` and thins the points.
  std::map<std::string, MemoryPlaceFlow> Finish(uint64_t end_ns, size_t step_count) &&;
  uint64_t frees_without_allocation() const { return frees_without_allocation_; }

 private:
  struct Place {
    MemoryPlaceFlow flow;
    uint64_t live_bytes = 0;
    std::map<uint64_t, uint64_t> occupied;  // offset -> bytes of the live blocks
  };
  struct LiveBlock {
    std::string place;
    MemoryBlock block;
  };

  Place& PlaceOf(const std::string& name, size_t step_count);
  void Apply(const MemoryRecord& record, size_t step_count);
  void Allocate(const std::string& place, const MemoryRecord& record, size_t step_count);
  void Release(uint64_t address, uint64_t time_ns, bool live_at_end);
  void KeepBlock(Place* place, MemoryBlock block);

  std::map<std::string, Place> places_;
  std::map<uint64_t, LiveBlock> live_;  // by address
  uint64_t frees_without_allocation_ = 0;
};

// "GPU<d>" for device, managed and pool memory; "Host" for pageable and pinned memory
// and records without a device.
std::string MemoryPlaceName(const MemoryRecord& record);

// Lowest offset at which `bytes` fit between the `occupied` blocks (offset -> bytes).
uint64_t FirstFitOffset(const std::map<uint64_t, uint64_t>& occupied, uint64_t bytes);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_MEMORY_FLOW_H_
