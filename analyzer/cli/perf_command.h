// `profanalyze perf-summary [FILE]`: the Perf Summary (summary/perf_summary.h) of steps
// measured elsewhere, one step a line, "DURATION_NS READER_NS SAMPLES" (SAMPLES <= 0:
// unknown), read from FILE or standard input ("-"). The Python Profiler prints its
// benchmark through it: it times every step between start() and stop(), including those
// a timer-only run records no trace of, and the table is the analyzer's, not a copy.
#ifndef PROF_ANALYZER_CLI_PERF_COMMAND_H_
#define PROF_ANALYZER_CLI_PERF_COMMAND_H_

#include <istream>
#include <string>

#include <CLI/CLI.hpp>

#include "absl/status/statusor.h"
#include "analyzer/summary/perf_summary.h"

namespace prof::analyzer {

struct PerfCommandOptions {
  std::string path = "-";
  std::string ips_unit;  // "" for samples
  int perf_skip = -1;
};

CLI::App* AddPerfCommand(CLI::App* app, PerfCommandOptions* options);
int RunPerfCommand(const PerfCommandOptions& options);

// The steps of `input`; an error names the first bad line. Blank lines are skipped.
absl::StatusOr<PerfFigures> ParsePerfSteps(std::istream& input);

// The table as `profanalyze perf-summary` prints it; "" when no step is left to measure.
std::string RenderPerfSummary(const PerfFigures& figures, int perf_skip);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_PERF_COMMAND_H_
