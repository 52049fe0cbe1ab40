// Test support for the timeline exports: one trace file holding each kind of record with
// every argument the agent records, and the values the exports must show for them,
// worked out by hand (see the .cc).
#ifndef PROF_ANALYZER_RENDER_TIMELINE_TEST_TRACE_H_
#define PROF_ANALYZER_RENDER_TIMELINE_TEST_TRACE_H_

#include <optional>
#include <string>

#include "analyzer/model/trace_model.h"

namespace prof::analyzer::testing {

// Writes the trace under TEST_TMPDIR as `name`; returns its path.
std::string WriteRecordedArgumentsTrace(const std::string& name);

// The Chrome trace JSON ExportChromeTrace writes for `model`, through a file `name` under
// TEST_TMPDIR (as profanalyze export writes it); nullopt when the file or the export fails.
std::optional<std::string> ChromeJsonOf(const TraceModel& model, const std::string& name);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_RENDER_TIMELINE_TEST_TRACE_H_
