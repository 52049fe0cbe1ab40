// Writes Perfetto's native protobuf trace (TracePacket / TrackEvent, see
// perfetto_trace.proto): the same rows and arguments as the Chrome JSON export (one
// process per traced process with a track per thread, one per GPU with a track per stream,
// memory counters, a "recording windows" track, launch flows), in a format the Perfetto UI
// opens beyond the Chrome JSON importer's size limits. Streams one packet at a time; memory
// holds one window's events.
#ifndef PROF_ANALYZER_RENDER_PERFETTO_EXPORTER_H_
#define PROF_ANALYZER_RENDER_PERFETTO_EXPORTER_H_

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/render/timeline_walk.h"

namespace prof::analyzer {

struct PerfettoExportFigures {
  uint64_t packets = 0;
  uint64_t slices = 0;
  uint64_t flows = 0;
  uint64_t clamped_slices = 0;  // ended early where a later slice on their track overlapped them
};

struct TimelineSlice;

// A sink of the timeline walk (timeline_walk.h); privately, so callers only add windows.
class PerfettoTraceExport : private TimelineSink {
 public:
  PerfettoTraceExport(std::FILE* out, PerfettoExportFigures* figures);
  ~PerfettoTraceExport() override;

  // `process_index` is the same for every window of one process (as ChromeTraceExport).
  void AddWindow(const TraceModel& window, size_t process_index);
  // A slice of a window read in slices (read/window_slicer.h), its slices given in order
  // (part->continues for all but the first; its span is not needed): the slices still open
  // on a track at a slice's end are carried to the next, so each track's slices nest as a
  // whole read nests them, and the recording window is written once its span is known.
  void AddSlice(const TraceModel& slice, size_t process_index, const WindowPart& part);
  // Errors: the output could not be written whole.
  absl::Status End();

 private:
  void WritePacket(const std::string& serialized_packet);
  // Describes a track once (the first time it is used); returns its uuid.
  uint64_t ProcessTrack(const TraceModel& model, size_t process_index);
  uint64_t ThreadTrack(const TraceModel& model, size_t process_index, uint64_t thread);
  uint64_t GpuTrack(const TraceModel& model, size_t process_index, uint32_t device);
  uint64_t StreamTrack(const TraceModel& model, size_t process_index, uint32_t device,
                       uint32_t stream);
  uint64_t ChildTrack(uint64_t parent, uint64_t uuid, const std::string& name, bool bytes_counter);
  // The walk's items: slices are collected per window, nested and written at OnEndSlices;
  // memory events are written as they come.
  void OnBeginWindow(const TraceModel& window, size_t process_index) override;
  void OnRecordingWindow(uint64_t start_ns, uint64_t end_ns, const std::string& label) override;
  void OnHostRange(const HostRange& range) override;
  void OnNcclCall(const NcclCall& call) override;
  void OnApiCall(const ApiCall& call, bool launched) override;
  void OnDeviceActivity(const DeviceActivity& activity) override;
  void OnEndSlices() override;
  void OnMemoryChange(const MemoryRecord& record, const MemoryChange& change,
                      const analyzer::LiveMemory& live) override;
  void OnSampleCounter(const MemorySample& sample, const SampleCounter& counter) override;
  void CollectNcclCalls();
  void WriteMemoryCounter(const TraceModel& window, size_t process_index, uint64_t time_ns,
                          int32_t place, uint64_t bytes);
  void WriteSlices(std::vector<TimelineSlice>* slices);
  // Ends every slice carried open, and writes the sliced window's recording window.
  void EndCarried();
  void WriteEnd(uint64_t track, uint64_t time_ns);
  void WriteEvent(uint64_t time_ns, int type, const TimelineSlice& slice, bool with_details);

  std::FILE* out_;
  PerfettoExportFigures* figures_;
  bool failed_ = false;
  std::set<uint64_t> described_;
  const TraceModel* window_ = nullptr;  // the window being walked
  size_t index_ = 0;                    // its process index
  std::vector<TimelineSlice> slices_;
  std::vector<const NcclCall*> pending_nccl_;
  // A window read in slices: per track, the slices still open (their ends), outermost
  // first; and the window's span and label, written at its end.
  bool carry_ = false;
  struct OpenSlice {
    uint64_t track;
    uint64_t end_ns;
  };
  std::map<uint64_t, std::vector<OpenSlice>> carried_;
  std::vector<TimelineSlice> carried_window_;
  TimelineWalk walk_;
};

// The whole export of models already loaded (one per process).
absl::Status ExportPerfettoTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                                 PerfettoExportFigures* figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_PERFETTO_EXPORTER_H_
