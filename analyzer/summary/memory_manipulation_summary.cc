#include "analyzer/summary/memory_manipulation_summary.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/summary/name_test.h"
#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

// What the device records of one call add up to.
struct DeviceWork {
  uint64_t ns = 0;
  uint64_t bytes = 0;
  NameId direction = 0;  // the last copy record's name (MEMCPY_HtoD); 0 for memsets
};

// "MEMCPY_HtoD" names the direction the device saw, also for cudaMemcpyDefault.
bool IsCopyRecordName(absl::string_view name) { return absl::StartsWith(name, "MEMCPY_"); }

// The window's copy and set records (the context's list of them) summed by call, in
// record order, into an entry per call found through an array indexed by call: no hash map
// (a million copies made its random probes a fifth of the analysis) and no sort of the
// records by call (which was most of this table's cost). The calls are then read in one
// walk in call order, which needs no list of the copy calls and no second, scattered pass
// over them.
class RecordWork {
 public:
  explicit RecordWork(const AnalysisContext& window) {
    const TraceModel& model = *window.model;
    const int32_t call_count = static_cast<int32_t>(model.api_calls.size());
    entry_of_call_.assign(call_count, kNoIndex);
    work_.reserve(window.copy_records.size());
    NameTest<IsCopyRecordName> is_copy_record(model.names);
    const DeviceActivity* activities = model.device_activities.data();
    for (const uint32_t record : window.copy_records) {
      const DeviceActivity& activity = activities[record];
      // api_call is kNoIndex or a call of the model (the correlation stage sets it).
      if (activity.api_call < 0 || activity.api_call >= call_count) continue;
      int32_t& entry = entry_of_call_[activity.api_call];
      if (entry == kNoIndex) {
        entry = static_cast<int32_t>(work_.size());
        work_.emplace_back();
      }
      DeviceWork& work = work_[entry];
      work.ns += activity.end_ns - activity.start_ns;
      work.bytes += activity.bytes;
      if (is_copy_record(activity.name)) work.direction = activity.name;
    }
  }

  // The records' work of call `index`; nullptr when it has none.
  const DeviceWork* Of(int32_t index) const {
    const int32_t entry = entry_of_call_[index];
    return entry == kNoIndex ? nullptr : &work_[entry];
  }

 private:
  std::vector<int32_t> entry_of_call_;  // by call index: the index in work_, or kNoIndex
  std::vector<DeviceWork> work_;        // in the order of each call's first record
};

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

// What AddCopyFigures knows of a copy or set function's name: the row of its last call
// with that row's direction key, as a function nearly always copies one way: its next
// call then needs no hash lookup.
struct CallNameSlot {
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
        direction != 0 ? direction : (0x80000000u | static_cast<uint32_t>(call.copy_kind()));
    if (slot->row != nullptr && slot->direction_key == key) return *slot->row;
    slot->direction_key = key;
    slot->row = Find(model, call, direction, key, figures);
    return *slot->row;
  }

 private:
  // Out of line: inlined, its hash map and string code took the registers of the walk over
  // the calls, which then kept its values on the stack.
  ABSL_ATTRIBUTE_NOINLINE CopyCallFigures* Find(const TraceModel& model, const ApiCall& call,
                                                NameId direction, uint32_t key,
                                                CopyFigures* figures) {
    CopyCallFigures*& row = row_of_[(static_cast<uint64_t>(call.name) << 32) | key];
    if (row == nullptr) {
      const absl::string_view text =
          direction != 0 ? model.names.Get(direction).substr(7)
                         : CopyDirectionName(call.copy_kind());
      row = &figures->rows[RowName(model.names.Get(call.name), text)];
    }
    return row;
  }

  absl::flat_hash_map<uint64_t, CopyCallFigures*> row_of_;
};

// Adds one copy or set call to its row. Out of line: the walk over every call (most not
// copies) then keeps its few values in registers.
class CopyRowAdder {
 public:
  CopyRowAdder(const TraceModel& model, CopyFigures* figures) : model_(model), figures_(figures) {}

  ABSL_ATTRIBUTE_NOINLINE void Add(const ApiCall& call, const DeviceWork* work) {
    if (call.name >= slot_of_name_.size()) slot_of_name_.resize(call.name + 1);
    const NameId direction = work != nullptr ? work->direction : 0;
    CopyCallFigures& row = rows_.Of(model_, call, direction, &slot_of_name_[call.name], figures_);
    row.host.Add(static_cast<double>(call.end_ns - call.start_ns));
    const uint64_t bytes = work != nullptr && work->bytes > 0 ? work->bytes : call.bytes;
    row.bytes += bytes;
    if (work != nullptr) {
      row.device.Add(static_cast<double>(work->ns));
      row.bytes_with_device_time += bytes;
    }
  }

 private:
  const TraceModel& model_;
  CopyFigures* figures_;
  std::vector<CallNameSlot> slot_of_name_;  // by the call's NameId
  CopyRows rows_;
};

}  // namespace

bool IsCopyOrSetCall(absl::string_view name) {
  return absl::StartsWith(name, "cudaMemcpy") || absl::StartsWith(name, "cudaMemset") ||
         absl::StartsWith(name, "cuMemcpy") || absl::StartsWith(name, "cuMemset");
}

// The copy and set calls' records summed by call, the copy names' test, and the rows.
class CopyCallAdder::Adder {
 public:
  Adder(const AnalysisContext& window, CopyFigures* figures)
      : records_(window), is_copy_call_(window.model->names), rows_(*window.model, figures) {}

  bool IsCopyCall(NameId name) { return is_copy_call_(name); }
  void Add(int32_t index, const ApiCall& call) { rows_.Add(call, records_.Of(index)); }

 private:
  const RecordWork records_;
  NameTest<IsCopyOrSetCall> is_copy_call_;
  CopyRowAdder rows_;
};

CopyCallAdder::CopyCallAdder(const AnalysisContext& window, CopyFigures* figures)
    : adder_(std::make_unique<Adder>(window, figures)) {}

CopyCallAdder::~CopyCallAdder() = default;

bool CopyCallAdder::IsCopyCall(NameId name) { return adder_->IsCopyCall(name); }

void CopyCallAdder::Add(int32_t index, const ApiCall& call) { adder_->Add(index, call); }

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
