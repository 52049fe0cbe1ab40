#include "analyzer/summary/user_range_summaries.h"

#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "analyzer/summary/name_test.h"
#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

std::vector<Column> Columns() {
  return {{"Name", "name", 4},
          {"Calls", "calls", 6},
          {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
          {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40}};
}

void AddItemRow(const RenderContext& context, const NamedItem& item, SummaryTable* table) {
  table->AddRow(
      {Cell::Text(std::string(context.names->Get(item.name))), Cell::Count(item.cpu.calls),
       Cell::Stats(item.cpu.ToStats(static_cast<double>(context.totals->total_ns))),
       Cell::Stats(item.gpu.ToStats(static_cast<double>(context.totals->step_device_ns)))});
}

void AddRange(const AnalysisContext& context, uint32_t index, NamedItems<NamedItem>* items) {
  const HostRange& range = context.model->ranges[index];
  NamedItem& item = items->Get(range.name);
  item.cpu.Add(static_cast<double>(range.end_ns - range.start_ns));
  item.gpu.Add(static_cast<double>(context.tree->device_ns[index]));
}

}  // namespace

bool IsMemoryManipulationName(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  return absl::StrContains(lower, "memcpy") || absl::StrContains(lower, "memorycopy") ||
         absl::StrContains(lower, "memset");
}

void AddUserRangeFigures(const AnalysisContext& window, UserRangeFigures* figures) {
  // IsMemoryManipulationName lowercases and searches: once per name, not per range.
  NameTest<IsMemoryManipulationName> is_memory_name(window.model->names);
  for (uint32_t index : window.tree->preorder) {
    const HostRange& range = window.model->ranges[index];
    if (range.type != RangeType::kUserDefined && range.type != RangeType::kNvtx) continue;
    if (is_memory_name(range.name)) {
      AddRange(window, index, &figures->memory_manipulation);
    } else if (range.type == RangeType::kUserDefined) {
      AddRange(window, index,
               &figures->user_defined[window.options.thread_sep ? range.thread_id : 0]);
    }
  }
}

std::optional<SummaryTable> UserDefinedSummary(const UserRangeFigures& figures,
                                               const RenderContext& context) {
  const std::map<uint64_t, NamedItems<NamedItem>>& groups = figures.user_defined;
  if (groups.empty()) return std::nullopt;
  SummaryTable table;
  table.key = "userdefined";
  table.title = "UserDefined Summary";
  table.columns = Columns();
  for (const auto& [thread, items] : groups) {
    table.AddTitle(context.options.thread_sep ? absl::StrCat("Thread: ", thread)
                                              : std::string("Thread: All threads merged"));
    std::vector<size_t> order = SortedOrder(items.items(), context.options.sorted_by);
    KeepTop(context.options.top, &order);
    for (size_t index : order) AddItemRow(context, items.items()[index], &table);
  }
  table.ending = TableEnding::kBlank;
  return table;
}

}  // namespace prof::analyzer
