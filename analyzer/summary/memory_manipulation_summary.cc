#include "analyzer/summary/memory_manipulation_summary.h"

#include <algorithm>
#include <utility>
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
  NameId direction = 0;  // the last copy record's name (MEMCPY_HtoD); 0 for memsets
};

// Sorts (call, record index) pairs, listed in record order, by call: a stable radix sort on
// the call index, 11 bits a pass, as many passes as the largest index needs. Stable, so
// record order within a call stays, as std::sort of the distinct pairs gave; linear, where
// std::sort of a million copies was 2 % of the analysis.
void SortByCall(std::vector<std::pair<int32_t, int32_t>>* order) {
  if (std::is_sorted(order->begin(), order->end())) return;
  uint32_t largest = 0;
  for (const auto& entry : *order) largest = std::max(largest, static_cast<uint32_t>(entry.first));
  constexpr int kBits = 11;
  std::vector<std::pair<int32_t, int32_t>> sorted(order->size());
  for (int shift = 0; shift < 32 && (shift == 0 || (largest >> shift) != 0); shift += kBits) {
    auto digit = [shift](const std::pair<int32_t, int32_t>& entry) {
      return (static_cast<uint32_t>(entry.first) >> shift) & ((1u << kBits) - 1);
    };
    std::vector<uint32_t> next(size_t{1} << kBits, 0);  // first slot of each digit
    for (const auto& entry : *order) ++next[digit(entry)];
    uint32_t sum = 0;
    for (uint32_t& slot : next) sum += std::exchange(slot, sum);
    for (const auto& entry : *order) sorted[next[digit(entry)]++] = entry;
    order->swap(sorted);
  }
}

// The window's device copies and memsets as (issuing call, activity index), in call order
// and, within a call, in record order. A sorted list walked beside the calls, not a hash map
// by call: a million copies made the map's random probes a fifth of the whole analysis.
// Reserved at the context's count of copies and memsets, so it is written once, not regrown.
std::vector<std::pair<int32_t, int32_t>> CopyActivitiesByCall(const AnalysisContext& window) {
  const TraceModel& model = *window.model;
  std::vector<std::pair<int32_t, int32_t>> order;
  order.reserve(window.counts.Device(DeviceKind::kMemcpy) +
                window.counts.Device(DeviceKind::kMemset));
  const auto& activities = model.device_activities;
  for (int32_t index = 0; index < static_cast<int32_t>(activities.size()); ++index) {
    const DeviceActivity& activity = activities[index];
    if (activity.api_call == kNoIndex) continue;
    if (activity.kind != DeviceKind::kMemcpy && activity.kind != DeviceKind::kMemset) continue;
    order.emplace_back(activity.api_call, index);
  }
  SortByCall(&order);
  return order;
}

// Sums the device records of `call` from `*cursor` on; false when it has none.
bool DeviceWorkOf(const TraceModel& model, const std::vector<std::pair<int32_t, int32_t>>& order,
                  int32_t call, size_t* cursor, std::vector<int8_t>* is_copy_record,
                  DeviceWork* work) {
  while (*cursor < order.size() && order[*cursor].first < call) ++*cursor;
  bool found = false;
  for (; *cursor < order.size() && order[*cursor].first == call; ++*cursor) {
    const DeviceActivity& activity = model.device_activities[order[*cursor].second];
    found = true;
    work->ns += activity.end_ns - activity.start_ns;
    work->bytes += activity.bytes;
    if (activity.name >= is_copy_record->size()) is_copy_record->resize(activity.name + 1, -1);
    int8_t& known = (*is_copy_record)[activity.name];
    // "MEMCPY_HtoD" names the direction the device saw, also for cudaMemcpyDefault.
    if (known < 0) known = absl::StartsWith(model.names.Get(activity.name), "MEMCPY_");
    if (known) work->direction = activity.name;
  }
  return found;
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

// What AddCopyFigures knows of one API function name: whether it copies or sets memory
// (tested once per name), and the row of its last call with that row's direction key, as
// a function nearly always copies one way: its next call then needs no hash lookup.
struct CallNameSlot {
  int8_t is_copy = -1;  // -1: not yet tested
  uint32_t direction_key = 0;
  CopyCallFigures* row = nullptr;  // std::map values stay put
};

// The row of each (call name, direction), its name built once per pair, not per call.
class CopyRows {
 public:
  CopyCallFigures& Of(const TraceModel& model, const ApiCall& call, NameId direction,
                      CallNameSlot* slot, CopyFigures* figures) {
    // Directions from a record's name are NameIds; those from the call's copy kind are
    // kept apart by the top bit (so a key is never 0).
    const uint32_t key =
        direction != 0 ? direction : (0x80000000u | static_cast<uint32_t>(call.copy_kind));
    if (slot->row != nullptr && slot->direction_key == key) return *slot->row;
    CopyCallFigures*& row = row_of_[(static_cast<uint64_t>(call.name) << 32) | key];
    if (row == nullptr) {
      const absl::string_view text = direction != 0 ? model.names.Get(direction).substr(7)
                                                    : CopyDirectionName(call.copy_kind);
      row = &figures->rows[RowName(model.names.Get(call.name), text)];
    }
    slot->direction_key = key;
    slot->row = row;
    return *row;
  }

 private:
  absl::flat_hash_map<uint64_t, CopyCallFigures*> row_of_;
};

}  // namespace

bool IsCopyOrSetCall(absl::string_view name) {
  return absl::StartsWith(name, "cudaMemcpy") || absl::StartsWith(name, "cudaMemset") ||
         absl::StartsWith(name, "cuMemcpy") || absl::StartsWith(name, "cuMemset");
}

void AddCopyFigures(const AnalysisContext& window, CopyFigures* figures) {
  const TraceModel& model = *window.model;
  const std::vector<std::pair<int32_t, int32_t>> order = CopyActivitiesByCall(window);
  size_t cursor = 0;
  std::vector<CallNameSlot> slot_of_name;  // by the call's NameId
  std::vector<int8_t> is_copy_record;      // by device record NameId (MEMCPY_*); -1 unknown
  CopyRows rows;
  for (int32_t index = 0; index < static_cast<int32_t>(model.api_calls.size()); ++index) {
    const ApiCall& call = model.api_calls[index];
    if (call.name >= slot_of_name.size()) slot_of_name.resize(call.name + 1);
    CallNameSlot& slot = slot_of_name[call.name];
    if (slot.is_copy < 0) slot.is_copy = IsCopyOrSetCall(model.names.Get(call.name));
    if (!slot.is_copy) continue;
    DeviceWork work;
    const bool has_device = DeviceWorkOf(model, order, index, &cursor, &is_copy_record, &work);
    CopyCallFigures& row = rows.Of(model, call, work.direction, &slot, figures);
    row.host.Add(static_cast<double>(call.end_ns - call.start_ns));
    const uint64_t bytes = has_device && work.bytes > 0 ? work.bytes : call.bytes;
    row.bytes += bytes;
    if (has_device) {
      row.device.Add(static_cast<double>(work.ns));
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
