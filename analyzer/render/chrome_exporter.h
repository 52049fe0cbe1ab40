// Writes Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one process per
// traced process with its threads (host ranges, API calls, NCCL calls, marks, memory
// counters), one process per GPU with a thread per stream (kernels, copies, memsets,
// synchronizations), and "launch" flow arrows from each API call to its device records.
// Streams its output; no analysis beyond pairing frees for the memory counters.
#ifndef PROF_ANALYZER_RENDER_CHROME_EXPORTER_H_
#define PROF_ANALYZER_RENDER_CHROME_EXPORTER_H_

#include <cstdio>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

struct ChromeExportFigures {
  uint64_t trace_events = 0;
  uint64_t flows = 0;
};

absl::Status ExportChromeTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                               ChromeExportFigures* figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_CHROME_EXPORTER_H_
