#include "analyzer/summary/memory_manipulation_summary.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

// What the device records of one call add up to.
struct DeviceWork {
  uint64_t ns = 0;
  uint64_t bytes = 0;
  std::string direction;  // from the copy record's name (MEMCPY_HtoD); "" for memsets
};

// The device copies and memsets of the window by the index of the call that issued them.
absl::flat_hash_map<int32_t, DeviceWork> DeviceWorkByCall(const TraceModel& model) {
  absl::flat_hash_map<int32_t, DeviceWork> by_call;
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.api_call == kNoIndex) continue;
    if (activity.kind != DeviceKind::kMemcpy && activity.kind != DeviceKind::kMemset) continue;
    DeviceWork& work = by_call[activity.api_call];
    work.ns += activity.end_ns - activity.start_ns;
    work.bytes += activity.bytes;
    const absl::string_view name = model.names.Get(activity.name);
    // "MEMCPY_HtoD" names the direction the device saw, also for cudaMemcpyDefault.
    if (absl::StartsWith(name, "MEMCPY_")) work.direction = std::string(name.substr(7));
  }
  return by_call;
}

std::string RowName(absl::string_view call, absl::string_view direction) {
  return direction.empty() ? std::string(call) : absl::StrCat(call, " ", direction);
}

std::vector<Column> Columns() {
  return {{"Name", "name", 4},
          {"Calls", "calls", 6},
          {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
          {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40},
          {"Bytes", "bytes", 10},
          {"GB/s", "gb_per_s", 8}};
}

// bytes / ns is GB/s (1e9 bytes per 1e9 ns).
Cell Bandwidth(uint64_t bytes, double device_ns) {
  return device_ns > 0 ? Cell::Number(static_cast<double>(bytes) / device_ns, 2) : Cell::Dash();
}

void AddCopyRows(const CopyFigures& copies, const RenderContext& context, SummaryTable* table) {
  std::vector<const std::pair<const std::string, CopyCallFigures>*> rows;
  for (const auto& entry : copies.rows) rows.push_back(&entry);
  const SortKey key = context.options.sorted_by;
  const bool ascending = SortsAscending(key);
  std::stable_sort(rows.begin(), rows.end(), [&](const auto* a, const auto* b) {
    const double x = SortValue(key, a->second.host, a->second.device);
    const double y = SortValue(key, b->second.host, b->second.device);
    return ascending ? x < y : x > y;
  });
  if (context.options.top > 0 && rows.size() > static_cast<size_t>(context.options.top)) {
    rows.resize(context.options.top);
  }
  for (const auto* row : rows) {
    const CopyCallFigures& figures = row->second;
    table->AddRow(
        {Cell::Text(row->first), Cell::Count(figures.host.calls),
         Cell::Stats(figures.host.ToStats(static_cast<double>(context.totals->total_ns))),
         Cell::Stats(figures.device.ToStats(static_cast<double>(context.totals->step_device_ns))),
         Cell::Bytes(static_cast<double>(figures.bytes)),
         Bandwidth(figures.bytes_with_device_time, figures.device.total)});
  }
}

void AddRangeRows(const UserRangeFigures& ranges, const RenderContext& context,
                  SummaryTable* table) {
  std::vector<size_t> order(ranges.memory_manipulation.items().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  KeepTop(context.options.top, &order);
  for (size_t index : order) {
    const NamedItem& item = ranges.memory_manipulation.items()[index];
    table->AddRow(
        {Cell::Text(std::string(context.names->Get(item.name))), Cell::Count(item.cpu.calls),
         Cell::Stats(item.cpu.ToStats(static_cast<double>(context.totals->total_ns))),
         Cell::Stats(item.gpu.ToStats(static_cast<double>(context.totals->step_device_ns))),
         Cell::Dash(), Cell::Dash()});
  }
}

}  // namespace

bool IsCopyOrSetCall(absl::string_view name) {
  return absl::StartsWith(name, "cudaMemcpy") || absl::StartsWith(name, "cudaMemset") ||
         absl::StartsWith(name, "cuMemcpy") || absl::StartsWith(name, "cuMemset");
}

void AddCopyFigures(const AnalysisContext& window, CopyFigures* figures) {
  const TraceModel& model = *window.model;
  const absl::flat_hash_map<int32_t, DeviceWork> device = DeviceWorkByCall(model);
  std::vector<int8_t> is_copy_name;  // by NameId: -1 not yet known; the test once per name
  for (int32_t index = 0; index < static_cast<int32_t>(model.api_calls.size()); ++index) {
    const ApiCall& call = model.api_calls[index];
    if (call.name >= is_copy_name.size()) is_copy_name.resize(call.name + 1, -1);
    int8_t& known = is_copy_name[call.name];
    if (known < 0) known = IsCopyOrSetCall(model.names.Get(call.name));
    if (!known) continue;
    const auto work = device.find(index);
    const bool has_device = work != device.end();
    const std::string direction = has_device && !work->second.direction.empty()
                                      ? work->second.direction
                                      : CopyDirectionName(call.copy_kind);
    CopyCallFigures& row = figures->rows[RowName(model.names.Get(call.name), direction)];
    row.host.Add(static_cast<double>(call.end_ns - call.start_ns));
    const uint64_t bytes = has_device && work->second.bytes > 0 ? work->second.bytes : call.bytes;
    row.bytes += bytes;
    if (has_device) {
      row.device.Add(static_cast<double>(work->second.ns));
      row.bytes_with_device_time += bytes;
    }
  }
}

std::optional<SummaryTable> MemoryManipulationSummary(const CopyFigures& copies,
                                                      const UserRangeFigures& ranges,
                                                      const RenderContext& context) {
  if (copies.rows.empty() && ranges.memory_manipulation.empty()) return std::nullopt;
  SummaryTable table;
  table.key = "memory_manipulation";
  table.title = "Memory Manipulation Summary";
  table.columns = Columns();
  AddCopyRows(copies, context, &table);
  AddRangeRows(ranges, context, &table);
  table.ending = TableEnding::kNote;
  table.note = {
      "Copy and memset calls by function and direction: CPU is the call's host time, GPU the "
      "device time of its copy (by correlation id).",
      "GB/s: bytes of the calls with a device record over their device time. Ranges named like "
      "memcpy/memset follow, without bytes."};
  return table;
}

}  // namespace prof::analyzer
