#include "analyzer/summary/overview_summary.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/summary/device_summary.h"
#include "analyzer/summary/model_summary.h"

namespace prof::analyzer {
namespace {

struct OverviewItem {
  std::string name;
  uint64_t calls = 0;
  double time_ns = 0;
};

bool Overlaps(const IntervalList& window, uint64_t start, uint64_t end) {
  auto it = std::upper_bound(window.begin(), window.end(), start,
                             [](uint64_t t, const Interval& i) { return t < i.end; });
  return it != window.end() && (it->start < end || (start == end && it->start <= start));
}

// Union of a set of intervals clipped to the window, with the count of those inside it.
OverviewItem Item(const std::string& name, IntervalList intervals, const IntervalList& window) {
  OverviewItem item{name};
  for (const Interval& interval : intervals) item.calls += Overlaps(window, interval.start, interval.end);
  item.time_ns = TotalLength(IntersectIntervals(MergeIntervals(std::move(intervals)), window));
  return item;
}

std::vector<OverviewItem> CpuItems(const AnalysisContext& context,
                                   const CommunicationFigures& communication) {
  const TraceModel& model = *context.model;
  std::vector<OverviewItem> items;
  const ModelPhaseTotals phases = ComputeModelPhaseTotals(context);
  if (context.has_steps) items.push_back({"ProfileStep", context.steps.size(), double(context.total_ns)});
  for (RangeType type : {RangeType::kOperator, RangeType::kUserDefined, RangeType::kNvtx}) {
    IntervalList intervals;
    for (const HostRange& range : model.ranges) {
      if (range.type == type) intervals.push_back({range.start_ns, range.end_ns});
    }
    if (!intervals.empty()) items.push_back(Item(RangeTypeName(type), std::move(intervals), context.window));
  }
  for (int slot = 1; slot < 5; ++slot) {
    if (phases.cpu[slot].calls == 0) continue;
    items.push_back({RangeTypeName(static_cast<RangeType>(slot)), phases.cpu[slot].calls,
                     phases.cpu[slot].total});
  }
  IntervalList calls;
  for (const ApiCall& call : model.api_calls) calls.push_back({call.start_ns, call.end_ns});
  if (!calls.empty()) items.push_back(Item("CudaRuntime", std::move(calls), context.window));
  if (!communication.host.empty()) {
    items.push_back({"Communication", communication.host_calls, double(TotalLength(communication.host))});
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const OverviewItem& a, const OverviewItem& b) { return a.time_ns > b.time_ns; });
  return items;
}

std::vector<OverviewItem> GpuItems(const AnalysisContext& context,
                                   const CommunicationFigures& communication) {
  std::vector<OverviewItem> items;
  for (DeviceKind kind : {DeviceKind::kKernel, DeviceKind::kMemcpy, DeviceKind::kMemset}) {
    uint64_t calls = 0;
    for (const DeviceActivity& activity : context.model->device_activities) {
      calls += activity.kind == kind && Overlaps(context.window, activity.start_ns, activity.end_ns);
    }
    if (calls == 0) continue;
    items.push_back({DeviceKindName(kind), calls,
                     double(TotalLength(DeviceActivityUnion(context, kind)))});
  }
  if (!communication.gpu.empty()) {
    items.push_back({"Communication", communication.gpu_calls, double(TotalLength(communication.gpu))});
  }
  return items;
}

}  // namespace

std::optional<SummaryTable> OverviewSummary(const AnalysisContext& context,
                                            const CommunicationFigures& communication) {
  SummaryTable table;
  table.key = "overview";
  table.title = "Overview Summary";
  table.columns = {{"Event Type", "event_type", 25, false},
                   {"Calls", "calls", 25, false},
                   {"CPU Time", "time_ns", 25, false},
                   {"Ratio (%)", "ratio_pct", 25, false}};
  const double total = static_cast<double>(context.total_ns);
  bool first = true;
  for (const OverviewItem& item : CpuItems(context, communication)) {
    Row& row = table.AddRow({Cell::Text(item.name), Cell::Count(item.calls), Cell::Time(item.time_ns),
                             Cell::Ratio(SafeRatio(item.time_ns, total))},
                            first ? 0 : 2);
    row.group = "cpu";
    first = false;
  }
  const std::vector<OverviewItem> gpu = GpuItems(context, communication);
  if (!gpu.empty()) {
    table.AddSeparator();
    Row header;
    header.kind = Row::Kind::kHeader;
    header.cells = {Cell::Text(""), Cell::Text("Calls"), Cell::Text("GPU Time"), Cell::Text("Ratio (%)")};
    table.rows.push_back(header);
    table.AddSeparator();
  }
  for (const OverviewItem& item : gpu) {
    Row& row = table.AddRow({Cell::Text(item.name), Cell::Count(item.calls), Cell::Time(item.time_ns),
                             Cell::Ratio(SafeRatio(item.time_ns, total))},
                            2);
    row.group = "gpu";
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "In this table, we sum up all collected events in terms of event type.",
      "The time of events collected on host are presented as CPU Time, and as GPU Time if on device.",
      "Events with different types may overlap or inclusion, e.g. Operator includes UserDefined,",
      "so the sum of ratios is not 100%. Events of one type that overlap (threads, streams)",
      "are merged before summing; times are clipped to the steps (T). The model phases",
      "(Dataloader, Forward, Backward, Optimization) show the Model Summary's sums."};
  return table;
}

}  // namespace prof::analyzer
