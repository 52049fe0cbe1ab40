// Writes Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one process per
// traced process with its threads (host ranges, API calls, NCCL calls, marks, memory
// counters), one process per GPU with a thread per stream (kernels, copies, memsets,
// synchronizations), and "launch" flow arrows from each API call to its device records.
// Streams its output; a sink of the one timeline walk (timeline_walk.h), which also pairs
// frees with allocations for the memory counters.
#ifndef PROF_ANALYZER_RENDER_CHROME_EXPORTER_H_
#define PROF_ANALYZER_RENDER_CHROME_EXPORTER_H_

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/render/timeline_walk.h"

namespace prof::analyzer {

struct ChromeExportFigures {
  uint64_t trace_events = 0;
  uint64_t flows = 0;
};

class ChromeWriter;
class ChromeSink;

// Streams an export one window at a time, so memory holds one window's events: opened with
// the earliest time of every window (timestamps are relative to it), then fed each
// process's windows in order.
class ChromeTraceExport {
 public:
  ChromeTraceExport(std::FILE* out, uint64_t origin_ns, ChromeExportFigures* figures);
  ~ChromeTraceExport();

  // `process_index` is the same for every window of one process: its GPU rows and memory
  // counters go on across its windows. `part`: a slice of a window read in slices
  // (timeline_walk.h); each row is named once per window, as a whole read names it.
  void AddWindow(const TraceModel& window, size_t process_index,
                 const WindowPart* part = nullptr);
  // Errors: the output could not be written whole.
  absl::Status End();

 private:
  std::unique_ptr<ChromeWriter> writer_;
  std::unique_ptr<ChromeSink> sink_;
  TimelineWalk walk_;
};

// The whole export of models already loaded (one per process).
absl::Status ExportChromeTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                               ChromeExportFigures* figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_CHROME_EXPORTER_H_
