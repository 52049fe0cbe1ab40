// `profanalyze hang`'s output: the text report (culprits first, then per communicator the
// ranks grouped by state, mismatches, missing dumps) and the JSON object under key "hang".
// Presentation only: the analysis is analyzer/job/hang_analysis.h.
#ifndef PROF_ANALYZER_CLI_HANG_RENDER_H_
#define PROF_ANALYZER_CLI_HANG_RENDER_H_

#include <string>

#include "analyzer/job/hang_analysis.h"

namespace prof::analyzer {

std::string RenderHangText(const HangReport& report);
// {"hang": {"dumps": N, "world_size": W, "missing_ranks": [...], "culprits": [{"rank",
// "comm", "seq", "operation", "dump_missing", "last_entered", "last_step", "last_call"}],
// "communicators": [...], "mismatches": [...], and what the recorders lost, summed over
// the dumps: "calls_overwritten", "calls_torn", "host_overwritten", "host_torn",
// "host_threads_refused"}}; "comm" is the communicator hash as 16 hex digits.
std::string RenderHangJson(const HangReport& report);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_HANG_RENDER_H_
