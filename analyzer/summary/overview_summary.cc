#include "analyzer/summary/overview_summary.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/summary/device_summary.h"
#include "analyzer/summary/model_summary.h"

namespace prof::analyzer {
namespace {

constexpr RangeType kHostRangeTypes[] = {RangeType::kOperator, RangeType::kUserDefined,
                                         RangeType::kNvtx};
constexpr UnionKind kHostUnions[] = {UnionKind::kOperatorRanges, UnionKind::kUserRanges,
                                     UnionKind::kNvtxRanges};
constexpr DeviceKind kDeviceKinds[] = {DeviceKind::kKernel, DeviceKind::kMemcpy,
                                       DeviceKind::kMemset};

struct OverviewItem {
  std::string name;
  uint64_t calls = 0;
  double time_ns = 0;
};

// Adds the union of a window's events of one kind (and the work carried in) clipped to
// the steps, and the count of events inside them.
void AddUnion(const AnalysisContext& window, UnionKind kind, IntervalList own, WindowCarry* carry,
              OverviewUnion* item) {
  item->present |= !own.empty();
  const ClippedUnion clipped = carry->Union(window, kind, std::move(own));
  item->calls += clipped.calls;
  item->time_ns += TotalLength(clipped.intervals);
}

std::vector<OverviewItem> CpuItems(const OverviewFigures& figures, const ModelPhaseTotals& phases,
                                   const CommunicationTotals& communication,
                                   const RunTotals& totals) {
  std::vector<OverviewItem> items;
  if (totals.has_steps)
    items.push_back({"ProfileStep", totals.step_count, double(totals.total_ns)});
  for (size_t slot = 0; slot < 3; ++slot) {
    const OverviewUnion& item = figures.host[slot];
    if (item.present)
      items.push_back({RangeTypeName(kHostRangeTypes[slot]), item.calls, double(item.time_ns)});
  }
  for (int slot = 1; slot < 5; ++slot) {
    if (phases.cpu[slot].calls == 0) continue;
    items.push_back({RangeTypeName(static_cast<RangeType>(slot)), phases.cpu[slot].calls,
                     phases.cpu[slot].total});
  }
  if (figures.host[3].present)
    items.push_back({"CudaRuntime", figures.host[3].calls, double(figures.host[3].time_ns)});
  if (communication.any_host) {
    items.push_back({"Communication", communication.host_calls, double(communication.host_ns)});
  }
  std::stable_sort(items.begin(), items.end(), [](const OverviewItem& a, const OverviewItem& b) {
    return a.time_ns > b.time_ns;
  });
  return items;
}

std::vector<OverviewItem> GpuItems(const OverviewFigures& figures,
                                   const CommunicationTotals& communication) {
  std::vector<OverviewItem> items;
  for (size_t slot = 0; slot < 3; ++slot) {
    const OverviewUnion& item = figures.device[slot];
    if (item.calls > 0)
      items.push_back({DeviceKindName(kDeviceKinds[slot]), item.calls, double(item.time_ns)});
  }
  if (communication.any_gpu) {
    items.push_back({"Communication", communication.gpu_calls, double(communication.gpu_ns)});
  }
  return items;
}

}  // namespace

void AddOverviewHostFigures(const AnalysisContext& window, WindowCarry* carry,
                            OverviewFigures* figures) {
  const TraceModel& model = *window.model;
  // Each list is reserved at its exact size (the context counted the records): the lists
  // hold millions of intervals, and grown by doubling they were written twice. The three
  // lists of a record type are filled in one pass, not one pass per list.
  IntervalList host[3];
  for (size_t slot = 0; slot < 3; ++slot) host[slot].reserve(window.counts.Ranges(kHostRangeTypes[slot]));
  for (const HostRange& range : model.ranges) {
    for (size_t slot = 0; slot < 3; ++slot) {
      if (range.type == kHostRangeTypes[slot]) host[slot].push_back({range.start_ns, range.end_ns});
    }
  }
  for (size_t slot = 0; slot < 3; ++slot)
    AddUnion(window, kHostUnions[slot], std::move(host[slot]), carry, &figures->host[slot]);
  IntervalList calls;
  calls.reserve(model.api_calls.size());
  for (const ApiCall& call : model.api_calls) calls.push_back({call.start_ns, call.end_ns});
  AddUnion(window, UnionKind::kApiCalls, std::move(calls), carry, &figures->host[3]);
}

void AddOverviewDeviceFigures(const DeviceUnions& device, OverviewFigures* figures) {
  const bool present[3] = {device.any_kernel, device.any_memcpy, device.any_memset};
  const uint64_t calls[3] = {device.KernelCalls(), device.memcpys.calls, device.memsets.calls};
  const uint64_t time_ns[3] = {device.AllKernelsLength(), TotalLength(device.memcpys.intervals),
                               TotalLength(device.memsets.intervals)};
  for (size_t slot = 0; slot < 3; ++slot) {
    figures->device[slot].present |= present[slot];
    figures->device[slot].calls += calls[slot];
    figures->device[slot].time_ns += time_ns[slot];
  }
}

std::optional<SummaryTable> OverviewSummary(const OverviewFigures& figures,
                                            const ModelPhaseTotals& phases,
                                            const CommunicationTotals& communication,
                                            const RenderContext& context) {
  SummaryTable table;
  table.key = "overview";
  table.title = "Overview Summary";
  table.columns = {{"Event Type", "event_type", 25, false},
                   {"Calls", "calls", 25, false},
                   {"CPU Time", "time_ns", 25, false},
                   {"Ratio (%)", "ratio_pct", 25, false}};
  const double total = static_cast<double>(context.totals->total_ns);
  bool first = true;
  for (const OverviewItem& item : CpuItems(figures, phases, communication, *context.totals)) {
    Row& row = table.AddRow({Cell::Text(item.name), Cell::Count(item.calls),
                             Cell::Time(item.time_ns), Cell::Ratio(SafeRatio(item.time_ns, total))},
                            first ? 0 : 2);
    row.group = "cpu";
    first = false;
  }
  const std::vector<OverviewItem> gpu = GpuItems(figures, communication);
  if (!gpu.empty()) {
    table.AddSeparator();
    Row header;
    header.kind = Row::Kind::kHeader;
    header.cells = {Cell::Text(""), Cell::Text("Calls"), Cell::Text("GPU Time"),
                    Cell::Text("Ratio (%)")};
    table.rows.push_back(header);
    table.AddSeparator();
  }
  for (const OverviewItem& item : gpu) {
    Row& row = table.AddRow({Cell::Text(item.name), Cell::Count(item.calls),
                             Cell::Time(item.time_ns), Cell::Ratio(SafeRatio(item.time_ns, total))},
                            2);
    row.group = "gpu";
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "In this table, we sum up all collected events in terms of event type.",
      "The time of events collected on host are presented as CPU Time, and as GPU Time if on "
      "device.",
      "Events with different types may overlap or inclusion, e.g. Operator includes UserDefined,",
      "so the sum of ratios is not 100%. Events of one type that overlap (threads, streams)",
      "are merged before summing; times are clipped to the steps (T). The model phases",
      "(Dataloader, Forward, Backward, Optimization) show the Model Summary's sums."};
  return table;
}

}  // namespace prof::analyzer
