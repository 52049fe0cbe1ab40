// Writes Perfetto's native protobuf trace (TracePacket / TrackEvent, see
// perfetto_trace.proto): the same rows and arguments as the Chrome JSON export (one
// process per traced process with a track per thread, one per GPU with a track per stream,
// memory counters, a "recording windows" track, launch flows), in a format the Perfetto UI
// opens beyond the Chrome JSON importer's size limits. Streams one packet at a time; memory
// holds one window's (or slice's) events and 40 bytes per row of it.
#ifndef PROF_ANALYZER_RENDER_PERFETTO_EXPORTER_H_
#define PROF_ANALYZER_RENDER_PERFETTO_EXPORTER_H_

#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/render/perfetto_tracks.h"
#include "analyzer/render/timeline_walk.h"

namespace prof::analyzer {

// One row of a window (a slice or instant of a track) as held until its track's rows are put
// in nesting order: its track, times and the record it came from (the window's, valid until
// the walk's OnEndWindow), whose name and arguments are read when the row is written, so a
// row holds no strings (40 bytes).
struct PerfettoRow;

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
  void WriteSlices(std::vector<PerfettoRow>* rows);
  // Ends every slice carried open, and writes the sliced window's recording window.
  void EndCarried();
  void WriteEnd(uint64_t track, uint64_t time_ns);
  void WriteEvent(uint64_t time_ns, int type, const PerfettoRow& row, bool with_details);

  PerfettoTracks tracks_;
  PerfettoExportFigures* figures_;
  const TraceModel* window_ = nullptr;  // the window being walked
  size_t index_ = 0;                    // its process index
  std::vector<PerfettoRow> slices_;
  std::deque<std::string> labels_;  // the recording windows' labels the rows point to
  std::vector<const NcclCall*> pending_nccl_;
  // A window read in slices: per track, the slices still open (their ends), outermost
  // first; and the window's span and label, written at its end.
  bool carry_ = false;
  struct OpenSlice {
    uint64_t track;
    uint64_t end_ns;
  };
  std::map<uint64_t, std::vector<OpenSlice>> carried_;
  std::vector<PerfettoRow> carried_window_;
  TimelineWalk walk_;
};

// The whole export of models already loaded (one per process).
absl::Status ExportPerfettoTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                                 PerfettoExportFigures* figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_PERFETTO_EXPORTER_H_
