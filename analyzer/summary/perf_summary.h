// Perf Summary (paddle's benchmark table) from the recorded steps: batch_cost = step
// duration, reader_cost = Dataloader time inside the step (any thread), ips = steps or
// samples per second. Unlike paddle: averages divide by the number of steps they sum, min
// and max are both tracked for every step (no inf), zero-length steps are left out of
// the speed extremes, and the warm-up skip is explicit (printed, --perf-skip).
#ifndef PROF_ANALYZER_SUMMARY_PERF_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_PERF_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// The warm-up steps skipped for `step_count` steps under `perf_skip` (-1: automatic:
// paddle's 10 when more than 10 steps were recorded, otherwise none).
int PerfSkippedSteps(int step_count, int perf_skip);

struct PerfStep {
  uint64_t duration_ns = 0;
  double reader_seconds = 0;  // Dataloader time inside the step
  int64_t sample_count = 0;   // <= 0: unknown; kStepOpenAtExit: closed by the agent at exit
};

struct PerfFigures {
  std::vector<PerfStep> steps;  // every window's steps, in time order
  // The IPS unit the program named (paddle's step_info(unit): the Python helper records a
  // mark "libprof.ips_unit=<unit>"); "" for samples. The latest one wins.
  std::string ips_unit;
  uint64_t ips_unit_ns = 0;
};

// The mark that names the IPS unit.
inline constexpr char kIpsUnitMark[] = "libprof.ips_unit=";

// Appends one window's steps.
void AddPerfFigures(const AnalysisContext& window, PerfFigures* figures);
std::optional<SummaryTable> PerfSummary(const PerfFigures& figures, const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_PERF_SUMMARY_H_
