// Writes one process's timeline as a Kineto trace: the trace-event JSON torch.profiler
// writes (export_chrome_trace), so HTA's TraceAnalysis, TensorBoard's trace viewer and
// Perfetto read it as they read a PyTorch trace of that rank.
//
// The layout, as Kineto's ChromeTraceLogger writes it (libkineto/src/output_json.cpp,
// ActivityType.h, MetadataFieldCatalog.h):
//   {"schemaVersion": 1, "deviceProperties": [{"id": d}, ...],
//    "distributedInfo": {"backend": "nccl", "rank": r, "world_size": w}   (rank known only),
//    "displayTimeUnit": "ms", "baseTimeNanoseconds": <CLOCK_REALTIME ns at ts 0>,
//    "traceEvents": [...]}
// - host rows: pid = the process id, tid = the thread id; steps are "ProfilerStep#N"
//   (cat user_annotation), operators cpu_op with "External id" (and "Input Dims" / "Input
//   type" where recorded), other ranges user_annotation, marks cpu_instant_event;
//   NCCL calls are cpu_op "record_param_comms" with "Collective name", "In msg nelems",
//   "Out msg nelems", "Group size", "dtype", "Seq" and "Rank"; steps and user ranges
//   (record_function's) carry an "External id" too;
// - runtime and driver calls: cuda_runtime / cuda_driver with "correlation" and the
//   "External id" of the innermost operator around them on their thread;
// - device rows: pid = the device index, tid = the stream; records named as Kineto names
//   them (kineto_names.h: "Memcpy HtoD (Pageable -> Device)", "Memset (...)", "Stream
//   Sync"); kernel, gpu_memcpy, gpu_memset, cuda_sync with "device", "stream",
//   "correlation", "External id" (their launch's), and for cuda_sync as Kineto writes it:
//   "cuda_sync_kind", stream -1 where CUPTI gives none (row 1, Kineto's |-1|), its own
//   correlation id as "External id" outside any operator; and
//   for kernels "grid", "block", "registers per thread", "shared memory"; copies "bytes" and
//   "memory bandwidth (GB/s)";
// - gpu_user_annotation on the device rows: the GPU span of each step and user range over
//   the records launched inside it, as Kineto computes it (kineto_annotations.h), with the
//   range's "External id";
// - "ac2g" flows (ph s on the call, ph f with bp e on the device record, id = correlation).
// Times: "ts"/"dur" in microseconds with three decimals from the export's origin.
// Left out (not recorded, so not made up): cbid, queued, context, blocks and warps per SM,
// achieved occupancy, memory events ("[memory]" needs allocator totals per event).
#ifndef PROF_ANALYZER_RENDER_KINETO_EXPORTER_H_
#define PROF_ANALYZER_RENDER_KINETO_EXPORTER_H_

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/render/timeline_walk.h"

namespace prof::analyzer {

struct KinetoExportFigures {
  uint64_t trace_events = 0;
  uint64_t flows = 0;
};

class KinetoWriter;

// One process's Kineto trace, streamed one window at a time; a sink of the timeline walk
// (timeline_walk.h), privately, so callers only add windows.
class KinetoTraceExport : private TimelineSink {
 public:
  // `origin_ns`: the host-clock time written as ts 0 (the earliest event of the export).
  KinetoTraceExport(std::FILE* out, uint64_t origin_ns, KinetoExportFigures* figures);
  ~KinetoTraceExport() override;

  // Every window of the one process, in order. `part`: the window is a slice of one read in
  // slices (timeline_walk.h), its slices given in order; its id_ranges must be the whole
  // window's KinetoIdRanges, so each slice numbers its operators as a whole read does.
  void AddWindow(const TraceModel& window, const WindowPart* part = nullptr);
  // Writes the trace's metadata; errors: the output could not be written whole.
  absl::Status End();

 private:
  // The walk's items, written as they come; the recording window and memory are not
  // Kineto rows.
  void OnBeginWindow(const TraceModel& window, size_t process_index) override;
  void OnContinueWindow(const TraceModel& slice, size_t process_index) override;
  void OnHostRange(const HostRange& range) override;
  void OnNcclCall(const NcclCall& call) override;
  void OnApiCall(const ApiCall& call, bool launched) override;
  void OnDeviceActivity(const DeviceActivity& activity) override;
  // The window's gpu_user_annotation spans (kineto_annotations.h).
  void OnEndSlices() override;
  std::string RangeName(const HostRange& range) const;
  void NameHostRows(const TraceModel& window);
  // Each API call's External id (its operator's), 0 for none.
  const std::vector<uint64_t>& CallIds();

  std::unique_ptr<KinetoWriter> writer_;
  uint64_t origin_ns_;
  // External ids: a window's operator and annotation ranges take the next KinetoIdRanges
  // ids in start order, its collectives the ids after those (in start order), so a window
  // read in slices numbers them as a whole read does.
  uint64_t next_range_id_ = 1;
  uint64_t next_collective_id_ = 1;
  const WindowPart* part_ = nullptr;  // the slice being walked, if any
  std::set<uint32_t> devices_;
  std::set<std::pair<int64_t, uint64_t>> named_rows_;  // (pid, tid); tid UINT64_MAX: the process
  ProcessIdentity identity_;
  int64_t realtime_offset_ns_ = 0;  // CLOCK_REALTIME - host clock, from the first anchor
  bool have_realtime_ = false;
  const TraceModel* window_ = nullptr;  // the window being walked
  std::vector<uint64_t> range_ids_;     // its ranges' External ids (operators; 0 for others)
  std::vector<uint64_t> collective_ids_;  // its NCCL calls' External ids (0: group calls)
  std::vector<uint64_t> call_ids_;      // CallIds(), once computed for the window
  TimelineWalk walk_;
};

// c10d's name for an NCCL operation ("allreduce", "broadcast", ...), as the
// "Collective name" torch.profiler records.
const char* CollectiveName(schema::NcclOperation operation);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_KINETO_EXPORTER_H_
