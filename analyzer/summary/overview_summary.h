// Overview Summary: per event type, the calls and the union of its time (threads and
// streams merged, clipped to the step windows) over T; the model phases show the Model
// Summary's sums, as in paddle. CPU rows sorted by time, GPU rows in a fixed order.
#ifndef PROF_ANALYZER_SUMMARY_OVERVIEW_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_OVERVIEW_SUMMARY_H_

#include <array>
#include <cstdint>
#include <optional>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/device_unions.h"
#include "analyzer/summary/distribution_summary.h"
#include "analyzer/summary/model_summary.h"
#include "analyzer/summary/summary_table.h"
#include "analyzer/summary/window_carry.h"

namespace prof::analyzer {

struct OverviewUnion {
  bool present = false;  // some event of the type exists (inside the steps or not)
  uint64_t calls = 0;    // events overlapping the steps
  uint64_t time_ns = 0;  // their union clipped to the steps
};

struct OverviewFigures {
  std::array<OverviewUnion, 4> host;    // Operator, UserDefined, Nvtx ranges; CUDA API calls
  std::array<OverviewUnion, 3> device;  // kernels, copies, memsets
};

// Adds one window's host unions (with the work carried into it).
void AddOverviewHostFigures(const AnalysisContext& window, WindowCarry* carry,
                            OverviewFigures* figures);
// Adds one window's device rows from the unions the Device Summary shares (computed with
// copies). Apart from the host part so that the device unions are taken after the host
// lists are gone: both held at once raised the peak (14 MiB on 10M events).
void AddOverviewDeviceFigures(const DeviceUnions& device, OverviewFigures* figures);

// The phase rows come from the Model Summary's totals, the Communication rows from the
// Distribution Summary's.
std::optional<SummaryTable> OverviewSummary(const OverviewFigures& figures,
                                            const ModelPhaseTotals& phases,
                                            const CommunicationTotals& communication,
                                            const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_OVERVIEW_SUMMARY_H_
