// The export command's work as a call: reads trace files one window at a time and writes
// their timeline as Chrome trace-event JSON or Perfetto's protobuf trace. `profanalyze
// export` (export_command.cc) and the Python extension (libprof._analysis.export,
// analyzer/python) both run this, so they write the same bytes for the same files.
#ifndef PROF_ANALYZER_CLI_EXPORT_TIMELINE_H_
#define PROF_ANALYZER_CLI_EXPORT_TIMELINE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {

struct TimelineExport {
  std::vector<std::string> unreadable;  // one message per file that could not be read
  std::string summary;                  // "N trace events and M launch flows", when written
};

// Writes the timeline of `paths` (trace files or folders of them) to `output` ("-":
// stdout) in `format` ("chrome", "perfetto" or "kineto": one file per process, so with
// several processes `output` is a folder, created if missing). Files that cannot be read are listed
// in `result->unreadable` and left out, whatever the returned status. Errors: InvalidArgument for
// another format; NotFound (or Unavailable) for a path that cannot be listed; FailedPrecondition
// "nothing could be read" (no output is created); the errno's code when the output cannot be
// opened; DataLoss when it was not written whole.
// Every format reads a file past slices.whole_file_bytes in step-aligned slices (memory flat
// in the file's size): Chrome and Kineto write the same events as a whole read, in another
// order; Perfetto each track's same packets in the same order (other tracks' between them).
absl::Status ExportTimeline(const std::vector<std::string>& paths, const std::string& output,
                            const std::string& format, TimelineExport* result,
                            const SliceOptions& slices = SliceOptions());

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_EXPORT_TIMELINE_H_
