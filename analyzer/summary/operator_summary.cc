#include "analyzer/summary/operator_summary.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

bool IsOperator(const TraceModel& model, int32_t range) {
  return range != kNoIndex && model.ranges[range].type == RangeType::kOperator;
}

OperatorItem& ItemOf(const AnalysisContext& context, OperatorFigures* groups, int32_t op) {
  const HostRange& range = context.model->ranges[op];
  const uint64_t group = context.options.thread_sep ? range.thread_id : 0;
  return (*groups)[group].Get(range.name);
}

void CollectRanges(const AnalysisContext& context, OperatorFigures* groups) {
  const TraceModel& model = *context.model;
  for (uint32_t index : context.tree->preorder) {
    const HostRange& range = model.ranges[index];
    const double duration = static_cast<double>(range.end_ns - range.start_ns);
    const double device = static_cast<double>(context.tree->device_ns[index]);
    if (range.type == RangeType::kOperator) {
      OperatorItem& item = ItemOf(context, groups, index);
      item.cpu.Add(duration);
      item.gpu.Add(device);
      continue;
    }
    const int32_t parent = context.tree->parent[index];
    if (!IsOperator(model, parent)) continue;
    OperatorInnerItem& inner = ItemOf(context, groups, parent).inners.Get(range.name);
    inner.cpu.Add(duration);
    inner.gpu.Add(device);
  }
}

// Device records launched directly by an operator or by one of its inner ranges.
void CollectDeviceRecords(const AnalysisContext& context, OperatorFigures* groups) {
  const TraceModel& model = *context.model;
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.api_call == kNoIndex || activity.kind == DeviceKind::kSynchronization) continue;
    const int32_t range = model.api_calls[activity.api_call].parent_range;
    if (range == kNoIndex) continue;
    const double duration = static_cast<double>(activity.end_ns - activity.start_ns);
    if (IsOperator(model, range)) {
      ItemOf(context, groups, range).devices.Get(activity.name).gpu.Add(duration);
      continue;
    }
    const int32_t parent = context.tree->parent[range];
    if (!IsOperator(model, parent)) continue;
    OperatorInnerItem& inner = ItemOf(context, groups, parent).inners.Get(model.ranges[range].name);
    inner.devices.Get(activity.name).gpu.Add(duration);
  }
}

void AddDeviceRows(const RenderContext& context, const NamedItems<NamedItem>& devices,
                   double parent_gpu, int indent, SummaryTable* table) {
  for (const NamedItem& device : devices.items()) {
    const std::string name(context.names->Get(device.name));
    table->AddRow({Cell::Name(name, 52), Cell::Count(device.gpu.calls),
                   Cell::DashStats(), Cell::Stats(device.gpu.ToStats(parent_gpu))},
                  indent);
  }
}

void AddOperatorRows(const RenderContext& context, const OperatorItem& op, double group_cpu,
                     double group_gpu, SummaryTable* table) {
  const StringPool& names = *context.names;
  table->AddRow({Cell::Text(std::string(names.Get(op.name))), Cell::Count(op.cpu.calls),
                 Cell::Stats(op.cpu.ToStats(group_cpu)), Cell::Stats(op.gpu.ToStats(group_gpu))});
  if (!context.options.op_detail) return;
  for (const OperatorInnerItem& inner : op.inners.items()) {
    table->AddRow({Cell::Name(std::string(names.Get(inner.name)), 52), Cell::Count(inner.cpu.calls),
                   Cell::Stats(inner.cpu.ToStats(op.cpu.total)),
                   Cell::Stats(inner.gpu.ToStats(op.gpu.total))},
                  2);
    AddDeviceRows(context, inner.devices, inner.gpu.total, 4, table);
  }
  AddDeviceRows(context, op.devices, op.gpu.total, 2, table);
}

}  // namespace

void AddOperatorFigures(const AnalysisContext& window, OperatorFigures* figures) {
  CollectRanges(window, figures);
  CollectDeviceRecords(window, figures);
}

std::optional<SummaryTable> OperatorSummary(const OperatorFigures& groups, const RenderContext& context) {
  if (groups.empty()) return std::nullopt;

  SummaryTable table;
  table.key = "operator";
  table.title = "Operator Summary";
  table.columns = {{"Name", "name", 52, false},
                   {"Calls", "calls", 6},
                   {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
                   {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40}};
  for (const auto& [thread, items] : groups) {
    table.AddTitle(context.options.thread_sep ? absl::StrCat("Thread: ", thread)
                                              : std::string("Thread: All threads merged"));
    double group_cpu = 0, group_gpu = 0;
    for (const OperatorItem& op : items.items()) {
      group_cpu += op.cpu.total;
      group_gpu += op.gpu.total;
    }
    std::vector<size_t> order = SortedOrder(items.items(), context.options.sorted_by);
    KeepTop(context.options.top, &order);
    for (size_t index : order) AddOperatorRows(context, items.items()[index], group_cpu, group_gpu, &table);
  }
  table.note = {};
  return table;
}

}  // namespace prof::analyzer
