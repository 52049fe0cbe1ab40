#include "analyzer/summary/operator_summary.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/summary/operator_flops.h"
#include "analyzer/summary/self_time.h"

namespace prof::analyzer {
namespace {

constexpr size_t kMaxSources = 3;  // calling lines kept per row

bool IsOperator(const TraceModel& model, int32_t range) {
  return range != kNoIndex && model.ranges[range].type == RangeType::kOperator;
}

// Where an operator's row is: its group (OperatorFigures::groups, a std::map, so the
// group stays put) and its index there (unlike a reference, valid while rows are added).
struct RowPlace {
  NamedItems<OperatorItem>* group = nullptr;
  uint32_t slot = 0;
  OperatorItem& Item() const { return group->items()[slot]; }
};

// The row of each operator range, remembering the last operator asked for: an operator's
// inner ranges follow it in preorder, so the row is found (its group's map, its shape key,
// its name slot) once per operator, not again for each inner range.
class OperatorRows {
 public:
  OperatorRows(const AnalysisContext& context, OperatorFigures* figures)
      : context_(context), figures_(figures) {}

  OperatorItem& Of(int32_t op) { return PlaceOf(op).Item(); }
  const RowPlace& PlaceOf(int32_t op) {
    if (op != last_op_) {
      last_ = Find(op);
      last_op_ = op;
    }
    return last_;
  }

 private:
  RowPlace Find(int32_t op) {
    const HostRange& range = context_.model->ranges[op];
    NameId key = range.name;
    if (context_.options.group_by_shape) {
      const NameId next = static_cast<NameId>(figures_->shape_keys.size() + 1);
      key = figures_->shape_keys.emplace(std::make_pair(range.name, range.shapes), next)
                .first->second;
    }
    NamedItems<OperatorItem>& group = GroupOf(range);
    const RowPlace place{&group, group.Slot(key)};
    OperatorItem& item = place.Item();
    item.op_name = range.name;
    if (context_.options.group_by_shape) item.shapes = range.shapes;
    return place;
  }

  // The group of the operator's thread (all one without thread_sep), remembered too: the
  // map is searched only when the thread changes.
  NamedItems<OperatorItem>& GroupOf(const HostRange& range) {
    const uint64_t group = context_.options.thread_sep ? range.thread_id : 0;
    if (group_items_ == nullptr || group != group_) {
      group_items_ = &figures_->groups[group];
      group_ = group;
    }
    return *group_items_;
  }

  const AnalysisContext& context_;
  OperatorFigures* figures_;
  int32_t last_op_ = kNoIndex;
  RowPlace last_;
  NamedItems<OperatorItem>* group_items_ = nullptr;
  uint64_t group_ = 0;
};

// Where the device records a range launches go, by range (indexed like model.ranges): the
// row's own list for an operator, its inner item's (`inner`) for an operator's direct
// child. Taken in the walk over the ranges, as the records come grouped by stream, not by
// range, and finding the row again for each change of range was most of the record walk.
struct DeviceListPlace {
  static constexpr uint32_t kOwnList = ~uint32_t{0};
  RowPlace row;  // row.group nullptr: not a range the walk placed
  uint32_t inner = kOwnList;
};

double FlopsOfCall(const AnalysisContext& context, const HostRange& range,
                   OperatorFigures* figures) {
  if (range.shapes == 0) return 0;
  auto [it, added] = figures->flops_of_call.emplace(std::make_pair(range.name, range.shapes), 0.0);
  if (added) {
    const StringPool& names = context.model->names;
    it->second = OperatorFlops(names.Get(range.name), names.Get(range.shapes));
  }
  return it->second;
}

// paddle's FLOPs printout leaves out the backward and optimizer passes: operators under a
// Backward or Optimization phase, or under an autograd node ("...Backward0", "GradNode").
bool InBackwardOrOptimizer(const AnalysisContext& context, int32_t range) {
  for (; range != kNoIndex; range = context.tree->parent[range]) {
    const HostRange& r = context.model->ranges[range];
    if (r.type == RangeType::kBackward || r.type == RangeType::kOptimization) return true;
    const absl::string_view name = context.model->names.Get(r.name);
    if (absl::StrContains(name, "Backward") || absl::StrContains(name, "GradNode") ||
        absl::EndsWith(name, "_backward")) {
      return true;
    }
  }
  return false;
}

void AddOperatorCall(const AnalysisContext& context, const SelfTimes& self, uint32_t index,
                     OperatorFigures* figures, OperatorRows* rows) {
  const HostRange& range = context.model->ranges[index];
  const double duration = static_cast<double>(range.end_ns - range.start_ns);
  OperatorItem& item = rows->Of(static_cast<int32_t>(index));
  item.cpu.Add(duration);
  item.gpu.Add(static_cast<double>(context.tree->device_ns[index]));
  item.self_cpu.Add(static_cast<double>(self.cpu_ns[index]));
  item.self_gpu.Add(static_cast<double>(self.device_ns[index]));
  const double flops = FlopsOfCall(context, range, figures);
  if (flops > 0) {
    figures->any_flops = true;
    item.flops += flops;
    if (!InBackwardOrOptimizer(context, static_cast<int32_t>(index))) {
      item.forward_flops += flops;
      item.forward_cpu_ns += duration;
    }
  }
  if (range.source != 0) {
    figures->any_source = true;
    if (item.sources.size() < kMaxSources + 1 &&
        std::find(item.sources.begin(), item.sources.end(), range.source) == item.sources.end()) {
      item.sources.push_back(range.source);  // one past kMaxSources marks "more"
    }
  }
}

// Where the device records `range` launches count: its own row's list for an operator, its
// inner item's for an operator's direct child (the row and inner item added when new);
// row.group nullptr: in no row. Inline: the walk over the ranges asks it for every range,
// and the call (a 24-byte result through memory) cost a quarter of its work.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline DeviceListPlace PlaceOfRange(const AnalysisContext& context, OperatorRows* rows, int32_t range) {
  const TraceModel& model = *context.model;
  if (IsOperator(model, range)) return {rows->PlaceOf(range)};
  const int32_t parent = context.tree->parent[range];
  if (!IsOperator(model, parent)) return {};
  const RowPlace row = rows->PlaceOf(parent);
  return {row, row.Item().inners.Slot(model.ranges[range].name)};
}

void CollectRanges(const AnalysisContext& context, OperatorFigures* figures,
                   std::vector<DeviceListPlace>* places) {
  const SelfTimes& self = SelfTimesOf(context);
  OperatorRows rows(context, figures);
  for (uint32_t index : context.tree->preorder) {
    const DeviceListPlace place = PlaceOfRange(context, &rows, static_cast<int32_t>(index));
    if (place.row.group == nullptr) continue;
    (*places)[index] = place;
    if (place.inner == DeviceListPlace::kOwnList) {
      AddOperatorCall(context, self, index, figures, &rows);
      continue;
    }
    const HostRange& range = context.model->ranges[index];
    OperatorInnerItem& inner = place.row.Item().inners.items()[place.inner];
    inner.cpu.Add(static_cast<double>(range.end_ns - range.start_ns));
    inner.gpu.Add(static_cast<double>(context.tree->device_ns[index]));
  }
}

// The device list a record launched by `range` goes to, or none (PlaceOfRange). Ranges
// the walk over the tree placed are looked up; any other (none in a well-formed tree, as
// the walk reaches every range) is placed here.
NamedItems<NamedItem>* DevicesOf(const AnalysisContext& context,
                                 const std::vector<DeviceListPlace>& places, OperatorRows* rows,
                                 int32_t range) {
  DeviceListPlace place = places[range];
  if (place.row.group == nullptr) place = PlaceOfRange(context, rows, range);
  if (place.row.group == nullptr) return nullptr;
  OperatorItem& item = place.row.Item();
  if (place.inner == DeviceListPlace::kOwnList) return &item.devices;
  return &item.inners.items()[place.inner].devices;
}

// Device records launched directly by an operator or by one of its inner ranges. The list
// of the previous record's range is kept: it stays valid, as only finding another range's
// list can add rows or inner items. A record's range is its call's, read from the tree's
// packed copy (loaded from the 80-byte calls it was 44% of this function), through a local
// pointer: finding a list may write anywhere, and the walk reloaded the vector each record.
void CollectDeviceRecords(const AnalysisContext& context,
                          const std::vector<DeviceListPlace>& places, OperatorFigures* figures) {
  const TraceModel& model = *context.model;
  const int32_t* call_range = context.tree->call_range.data();
  OperatorRows rows(context, figures);
  int32_t last_range = kNoIndex;
  NamedItems<NamedItem>* devices = nullptr;
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.api_call == kNoIndex || activity.kind == DeviceKind::kSynchronization) continue;
    const int32_t range = call_range[activity.api_call];
    if (range == kNoIndex) continue;
    if (range != last_range) {
      devices = DevicesOf(context, places, &rows, range);
      last_range = range;
    }
    if (devices == nullptr) continue;
    devices->Get(activity.name).gpu.Add(static_cast<double>(activity.end_ns - activity.start_ns));
  }
}

// The columns after Name (and Input Shapes): every row kind fills them in this order.
struct RowValues {
  Cell calls, cpu, gpu;
  Cell self_cpu = Cell::DashStats();
  Cell self_gpu = Cell::DashStats();
  Cell flops = Cell::Dash();
  Cell tflops = Cell::Dash();
  std::string source;
};

void AddRow(const RenderContext& context, Cell name, absl::string_view shapes, RowValues values,
            int indent, SummaryTable* table) {
  std::vector<Cell> cells{std::move(name)};
  if (context.options.group_by_shape) cells.push_back(Cell::Text(std::string(shapes)));
  for (Cell* cell : {&values.calls, &values.cpu, &values.gpu, &values.self_cpu, &values.self_gpu,
                     &values.flops, &values.tflops}) {
    cells.push_back(std::move(*cell));
  }
  cells.push_back(Cell::Text(std::move(values.source)));
  table->AddRow(std::move(cells), indent);
}

std::string SourcesText(const StringPool& names, const std::vector<NameId>& sources) {
  std::string text;
  for (size_t i = 0; i < sources.size() && i < kMaxSources; ++i) {
    absl::StrAppend(&text, i ? ", " : "", names.Get(sources[i]));
  }
  if (sources.size() > kMaxSources) absl::StrAppend(&text, ", ...");
  return text;
}

void AddDeviceRows(const RenderContext& context, const NamedItems<NamedItem>& devices,
                   double parent_gpu, int indent, SummaryTable* table) {
  for (const NamedItem& device : devices.items()) {
    const std::string name(context.names->Get(device.name));
    AddRow(context, Cell::Name(name, 52), "",
           {Cell::Count(device.gpu.calls), Cell::DashStats(),
            Cell::Stats(device.gpu.ToStats(parent_gpu))},
           indent, table);
  }
}

struct GroupTotals {
  double cpu = 0, gpu = 0, self_cpu = 0, self_gpu = 0;
};

void AddOperatorRows(const RenderContext& context, const OperatorItem& op, const GroupTotals& group,
                     SummaryTable* table) {
  const StringPool& names = *context.names;
  RowValues values{Cell::Count(op.cpu.calls), Cell::Stats(op.cpu.ToStats(group.cpu)),
                   Cell::Stats(op.gpu.ToStats(group.gpu))};
  values.self_cpu = Cell::Stats(op.self_cpu.ToStats(group.self_cpu));
  values.self_gpu = Cell::Stats(op.self_gpu.ToStats(group.self_gpu));
  if (op.flops > 0) values.flops = Cell::Count(op.flops);  // else "-": not computable
  // FLOPs per ns are GFLOPS; TFLOPS = FLOPs / GPU ns / 1e3.
  if (op.flops > 0 && op.gpu.total > 0)
    values.tflops = Cell::Number(op.flops / op.gpu.total / 1e3, 3);
  values.source = SourcesText(names, op.sources);
  AddRow(context, Cell::Name(std::string(names.Get(op.op_name)), 52), names.Get(op.shapes),
         std::move(values), 0, table);
  if (!context.options.op_detail) return;
  for (const OperatorInnerItem& inner : op.inners.items()) {
    AddRow(context, Cell::Name(std::string(names.Get(inner.name)), 52), "",
           {Cell::Count(inner.cpu.calls), Cell::Stats(inner.cpu.ToStats(op.cpu.total)),
            Cell::Stats(inner.gpu.ToStats(op.gpu.total))},
           2, table);
    AddDeviceRows(context, inner.devices, inner.gpu.total, 4, table);
  }
  AddDeviceRows(context, op.devices, op.gpu.total, 2, table);
}

std::vector<Column> OperatorColumns(const OperatorFigures& figures, const SummaryOptions& options) {
  std::vector<Column> columns{{"Name", "name", 52, false}};
  if (options.group_by_shape) columns.push_back({"Input Shapes", "shapes", 14});
  const bool no_flops = !figures.any_flops;
  const std::vector<Column> rest{
      {"Calls", "calls", 6},
      {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
      {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40},
      {"Self CPU Total / Avg / Max / Min / Ratio(%)", "self_cpu", 40, true, !options.self_time},
      {"Self GPU Total / Avg / Max / Min / Ratio(%)", "self_gpu", 40, true, !options.self_time},
      {"FLOPs", "flops", 10, true, no_flops},
      {"TFLOPS", "tflops", 8, true, no_flops},
      {"Source", "source", 6, true, !options.op_detail || !figures.any_source}};
  columns.insert(columns.end(), rest.begin(), rest.end());
  return columns;
}

// "1.23 G": paddle's K/M/G/T scaling of FLOPs and FLOPS.
std::string Scaled(double value) {
  const char* units[] = {"", " K", " M", " G", " T"};
  int unit = 0;
  while (value >= 1000 && unit < 4) {
    value /= 1000;
    ++unit;
  }
  return absl::StrFormat("%.2f%s", value, units[unit]);
}

// paddle's with_flops printout: one line per operator row with forward FLOPs,
// `<name> latency: <t>, FLOPs: <n>, FLOPS: <n * 1e9 / cpu_ns>` (FLOPS over CPU time).
std::vector<std::string> FlopsPrintout(const OperatorFigures& figures, const StringPool& names) {
  std::vector<std::string> lines;
  for (const auto& [thread, items] : figures.groups) {
    for (const OperatorItem& op : items.items()) {
      if (op.forward_flops <= 0) continue;
      std::string name(names.Get(op.op_name));
      if (op.shapes) absl::StrAppend(&name, " ", names.Get(op.shapes));
      lines.push_back(
          absl::StrFormat("%s latency: %.3f ms, FLOPs: %s, FLOPS: %s", name,
                          op.forward_cpu_ns / 1e6, Scaled(op.forward_flops),
                          Scaled(op.forward_flops * 1e9 / std::max(op.forward_cpu_ns, 1.0))));
    }
  }
  if (lines.empty()) return lines;
  const std::string title = " FLOPs (forward operators) ";
  const std::string rule((100 - title.size()) / 2, '=');
  lines.insert(lines.begin(), rule + title + rule);
  return lines;
}

}  // namespace

void AddOperatorFigures(const AnalysisContext& window, OperatorFigures* figures) {
  std::vector<DeviceListPlace> places(window.model->ranges.size());
  CollectRanges(window, figures, &places);
  CollectDeviceRecords(window, places, figures);
}

std::optional<SummaryTable> OperatorSummary(const OperatorFigures& figures,
                                            const RenderContext& context) {
  if (figures.groups.empty()) return std::nullopt;

  SummaryTable table;
  table.key = "operator";
  table.title = "Operator Summary";
  table.columns = OperatorColumns(figures, context.options);
  for (const auto& [thread, items] : figures.groups) {
    table.AddTitle(context.options.thread_sep ? absl::StrCat("Thread: ", thread)
                                              : std::string("Thread: All threads merged"));
    GroupTotals totals;
    for (const OperatorItem& op : items.items()) {
      totals.cpu += op.cpu.total;
      totals.gpu += op.gpu.total;
      totals.self_cpu += op.self_cpu.total;
      totals.self_gpu += op.self_gpu.total;
    }
    std::vector<size_t> order = SortedOrder(items.items(), context.options.sorted_by);
    KeepTop(context.options.top, &order);
    for (size_t index : order) AddOperatorRows(context, items.items()[index], totals, &table);
  }
  table.note = {};
  table.epilogue = FlopsPrintout(figures, *context.names);
  return table;
}

}  // namespace prof::analyzer
