// The one walk over a window's timeline that the timeline exports share (as Kineto's
// ActivityLogger: the walk knows the model, each sink knows one output format). It visits
// every item of a window once, in this order:
//   1. OnBeginWindow (the sink names its rows from the window's threads and streams),
//   2. OnRecordingWindow: the window's span (only for a window with events and a header),
//   3. OnHostRange: every host range and mark, in the model's order,
//   4. OnNcclCall: every NCCL call, in the model's order,
//   5. OnApiCall: every runtime and driver call, with whether a device record names it,
//   6. OnDeviceActivity: every kernel, copy, memset and synchronization,
//   7. OnEndSlices: every row above has been visited,
//   8. OnMemoryChange: every allocation and free in time order, paired by the one rule of
//      model/live_memory.h (across the process's windows); a free of nothing live is left out,
//   9. OnSampleCounter: every counter of every memory sample, samples in time order,
//  10. OnEndWindow.
// A sink that needs another order (Perfetto collects API calls before NCCL calls) buffers.
// A window read in slices (read/window_slicer.h) is walked slice by slice: its first as a
// window (with the whole window's span, measured beforehand), the others through
// OnContinueWindow and without a recording window, so the window's items are each visited
// once whatever the slicing (in another order: each slice's rows, then the next slice's).
//
// Not thread-safe; one walk per export.
#ifndef PROF_ANALYZER_RENDER_TIMELINE_WALK_H_
#define PROF_ANALYZER_RENDER_TIMELINE_WALK_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "analyzer/model/live_memory.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/render/timeline_args.h"

namespace prof::analyzer {

// The earliest host-clock time of the model's events; UINT64_MAX when it has none.
uint64_t EarliestTime(const TraceModel& model);
// The latest end of the model's events; 0 when it has none.
uint64_t LatestTime(const TraceModel& model);
// "window 2 (steps 10-14)": the label of the recording window a file holds.
std::string WindowLabel(const trace::FileHeader& header);

// Receives one window's items from TimelineWalk; every callback but OnBeginWindow is
// optional. References are valid during the call only (the window's until OnEndWindow).
class TimelineSink {
 public:
  virtual ~TimelineSink() = default;

  // `process_index` is the same for every window of one process.
  virtual void OnBeginWindow(const TraceModel& window, size_t process_index) = 0;
  // A later slice of the window begun last for `process_index`; by default a new window.
  virtual void OnContinueWindow(const TraceModel& slice, size_t process_index) {
    OnBeginWindow(slice, process_index);
  }
  // `label`: WindowLabel of the window's first header.
  virtual void OnRecordingWindow(uint64_t start_ns, uint64_t end_ns, const std::string& label) {}
  virtual void OnHostRange(const HostRange& range) {}
  virtual void OnNcclCall(const NcclCall& call) {}
  // `launched`: a device record of the window has this call as its api_call.
  virtual void OnApiCall(const ApiCall& call, bool launched) {}
  virtual void OnDeviceActivity(const DeviceActivity& activity) {}
  virtual void OnEndSlices() {}
  // `live`: the process's live memory after `change`.
  virtual void OnMemoryChange(const MemoryRecord& record, const MemoryChange& change,
                              const LiveMemory& live) {}
  virtual void OnSampleCounter(const MemorySample& sample, const SampleCounter& counter) {}
  virtual void OnEndWindow() {}
};

// Where a slice lies in a window read in slices.
struct WindowPart {
  bool continues = false;  // not the window's first slice
  // The whole window's EarliestTime and LatestTime (the first slice's recording window).
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  // The whole window's ranges that take a Kineto External id (KinetoIdRanges).
  uint64_t id_ranges = 0;
};

class TimelineWalk {
 public:
  explicit TimelineWalk(TimelineSink* sink) : sink_(sink) {}

  // Windows of one process in order; processes one after another or interleaved. `part`:
  // the window is a slice of one read in slices, its slices given in order.
  void AddWindow(const TraceModel& window, size_t process_index,
                 const WindowPart* part = nullptr);

 private:
  TimelineSink* sink_;
  std::map<size_t, LiveMemory> memory_;  // by process index: allocations live across windows
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_TIMELINE_WALK_H_
