#include "analyzer/summary/memory_summary.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace prof::analyzer {
namespace {

std::string PlaceName(const MemoryRecord& record) {
  return record.device >= 0 ? absl::StrCat("GPU", record.device) : std::string("Host");
}

std::vector<uint32_t> ByTime(const std::vector<MemoryRecord>& memory) {
  std::vector<uint32_t> order(memory.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return memory[a].time_ns < memory[b].time_ns; });
  return order;
}

SummaryTable PlaceTable(const MemoryFigures& figures) {
  SummaryTable table;
  table.key = "memory";
  table.title = "Memory Summary";
  table.time_unit_line = false;
  table.columns = {{"Place", "place", 12}, {"Allocations", "allocations", 12}, {"Frees", "frees", 12},
                   {"Allocated Size", "allocated_bytes", 15}, {"Freed Size", "freed_bytes", 15},
                   {"Peak Size", "peak_bytes", 15}, {"Alive At End", "alive_bytes", 15}};
  for (const auto& [place, figure] : figures.places) {
    table.AddRow({Cell::Text(place), Cell::Count(figure.allocations), Cell::Count(figure.frees),
                  Cell::Bytes(figure.allocated_bytes), Cell::Bytes(figure.freed_bytes),
                  Cell::Bytes(figure.peak_bytes), Cell::Bytes(figure.live_bytes)});
  }
  if (figures.frees_without_allocation > 0) {
    table.epilogue.push_back(absl::StrFormat("%d free(s) of addresses with no recorded allocation were ignored.",
                                             figures.frees_without_allocation));
  }
  table.ending = TableEnding::kBlank;
  return table;
}

SummaryTable StepTable(const AnalysisContext& context, const MemoryFigures& figures) {
  SummaryTable table;
  table.key = "memory_steps";
  table.title = "Memory High-Water Mark per Step";
  table.time_unit_line = false;
  table.columns = {{"Step", "step", 16}, {"Place", "place", 12}, {"High-Water Size", "high_water_bytes", 16}};
  for (size_t step = 0; step < figures.step_high_water.size(); ++step) {
    for (const auto& [place, bytes] : figures.step_high_water[step]) {
      table.AddRow({Cell::Text(std::string(context.model->names.Get(context.model->ranges[context.steps[step]].name))),
                    Cell::Text(place), Cell::Bytes(bytes)});
    }
  }
  table.ending = TableEnding::kBlank;
  return table;
}

SummaryTable LeakTable(const AnalysisContext& context, const MemoryFigures& figures) {
  SummaryTable table;
  table.key = "memory_alive";
  table.title = "Memory Blocks Alive at the End (leak candidates)";
  table.time_unit_line = false;
  table.columns = {{"Address", "address", 18}, {"Place", "place", 8}, {"Kind", "kind", 12},
                   {"Size", "bytes", 12}, {"Call Stack", "call_stack", 10}};
  const size_t limit = context.options.top > 0 ? context.options.top : 20;
  for (size_t i = 0; i < figures.alive_at_end.size() && i < limit; ++i) {
    const MemoryRecord& record = context.model->memory[figures.alive_at_end[i]];
    table.AddRow({Cell::Text(absl::StrFormat("0x%x", record.address)), Cell::Text(PlaceName(record)),
                  Cell::Text(trace::MemoryKind_Name(record.kind).substr(12)), Cell::Bytes(record.bytes),
                  Cell::Text(record.call_stack.empty() ? "-" : record.call_stack)});
  }
  if (figures.alive_at_end.size() > limit) {
    table.epilogue.push_back(absl::StrFormat("... and %d more block(s).", figures.alive_at_end.size() - limit));
  }
  table.ending = TableEnding::kBlank;
  return table;
}

}  // namespace

MemoryFigures ComputeMemoryFigures(const AnalysisContext& context) {
  const TraceModel& model = *context.model;
  MemoryFigures figures;
  figures.step_high_water.resize(context.steps.size());
  absl::flat_hash_map<uint64_t, uint32_t> live;  // address -> allocation record
  for (uint32_t index : ByTime(model.memory)) {
    const MemoryRecord& record = model.memory[index];
    const std::string place = PlaceName(record);
    MemoryPlace& figure = figures.places[place];
    if (record.allocate) {
      ++figure.allocations;
      figure.allocated_bytes += record.bytes;
      figure.live_bytes += record.bytes;
      live[record.address] = index;
    } else {
      auto it = live.find(record.address);
      if (it == live.end()) {
        ++figures.frees_without_allocation;
        continue;
      }
      const MemoryRecord& allocation = model.memory[it->second];
      MemoryPlace& owner = figures.places[PlaceName(allocation)];
      ++owner.frees;
      owner.freed_bytes += allocation.bytes;
      owner.live_bytes -= allocation.bytes;
      live.erase(it);
    }
    figure.peak_bytes = std::max(figure.peak_bytes, figure.live_bytes);
    const int step = FindStep(context, record.time_ns);
    if (step >= 0) {
      uint64_t& high = figures.step_high_water[step][place];
      high = std::max(high, figure.live_bytes);
    }
  }
  for (const auto& entry : live) figures.alive_at_end.push_back(entry.second);
  std::sort(figures.alive_at_end.begin(), figures.alive_at_end.end(), [&](uint32_t a, uint32_t b) {
    return model.memory[a].bytes != model.memory[b].bytes ? model.memory[a].bytes > model.memory[b].bytes : a < b;
  });
  return figures;
}

std::vector<SummaryTable> MemorySummaries(const AnalysisContext& context, const MemoryFigures& figures) {
  std::vector<SummaryTable> tables;
  if (figures.places.empty()) return tables;
  tables.push_back(PlaceTable(figures));
  bool any_step = false;
  for (const auto& step : figures.step_high_water) any_step |= !step.empty();
  if (any_step) tables.push_back(StepTable(context, figures));
  if (!figures.alive_at_end.empty()) tables.push_back(LeakTable(context, figures));
  return tables;
}

}  // namespace prof::analyzer
