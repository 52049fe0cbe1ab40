#include "analyzer/summary/memory_summary.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/summary/by_time.h"

namespace prof::analyzer {
namespace {

SummaryTable PlaceTable(const MemoryFigures& figures) {
  SummaryTable table;
  table.key = "memory";
  table.title = "Memory Summary";
  table.time_unit_line = false;
  table.columns = {{"Place", "place", 12},
                   {"Allocations", "allocations", 12},
                   {"Frees", "frees", 12},
                   {"Allocated Size", "allocated_bytes", 15},
                   {"Freed Size", "freed_bytes", 15},
                   {"Peak Size", "peak_bytes", 15},
                   {"Alive At End", "alive_bytes", 15}};
  for (const auto& [place, figure] : figures.places) {
    table.AddRow({Cell::Text(place), Cell::Count(figure.allocations), Cell::Count(figure.frees),
                  Cell::Bytes(figure.allocated_bytes), Cell::Bytes(figure.freed_bytes),
                  Cell::Bytes(figure.peak_bytes), Cell::Bytes(figure.live_bytes)});
  }
  if (figures.live.unmatched_frees() > 0) {
    table.epilogue.push_back(
        absl::StrFormat("%d free(s) of addresses with no recorded allocation were ignored.",
                        figures.live.unmatched_frees()));
  }
  if (figures.live.replaced_blocks() > 0) {
    table.epilogue.push_back(
        absl::StrFormat("%d allocation(s) at a still-live address ended the block there (its free "
                        "was not recorded): %d bytes "
                        "no longer counted as live, not counted as freed.",
                        figures.live.replaced_blocks(), figures.live.replaced_bytes()));
  }
  table.ending = TableEnding::kBlank;
  return table;
}

SummaryTable StepTable(const MemoryFigures& figures) {
  SummaryTable table;
  table.key = "memory_steps";
  table.title = "Memory High-Water Mark per Step";
  table.time_unit_line = false;
  table.columns = {
      {"Step", "step", 16}, {"Place", "place", 12}, {"High-Water Size", "high_water_bytes", 16}};
  for (const StepHighWater& step : figures.step_high_water) {
    for (const auto& [place, bytes] : step.places) {
      table.AddRow({Cell::Text(step.step), Cell::Text(place), Cell::Bytes(bytes)});
    }
  }
  table.ending = TableEnding::kBlank;
  return table;
}

SummaryTable LeakTable(const MemoryFigures& figures, const RenderContext& context) {
  SummaryTable table;
  table.key = "memory_alive";
  table.title = "Memory Blocks Alive at the End (leak candidates)";
  table.time_unit_line = false;
  table.columns = {{"Address", "address", 18},
                   {"Place", "place", 8},
                   {"Kind", "kind", 12},
                   {"Size", "bytes", 12},
                   {"Call Stack", "call_stack", 10}};
  const size_t limit = context.options.top > 0 ? context.options.top : 20;
  const std::vector<const MemoryRecord*> alive = figures.AliveBlocks();
  for (size_t i = 0; i < alive.size() && i < limit; ++i) {
    const MemoryRecord& record = *alive[i];
    table.AddRow({Cell::Text(absl::StrFormat("0x%x", record.address)),
                  Cell::Text(MemoryPlaceName(MemoryPlaceOf(record))),
                  Cell::Text(MemoryKindName(record.kind)), Cell::Bytes(record.bytes),
                  // The whole symbolized stack (JSON); text shows its first 120 characters.
                  Cell::Name(record.call_stack.empty() ? "-" : record.call_stack, 120)});
  }
  if (alive.size() > limit) {
    table.epilogue.push_back(absl::StrFormat("... and %d more block(s).", alive.size() - limit));
  }
  table.ending = TableEnding::kBlank;
  return table;
}

}  // namespace

std::vector<const MemoryRecord*> MemoryFigures::AliveBlocks() const {
  std::vector<const MemoryRecord*> alive;
  for (const auto& [address, block] : live.blocks()) alive.push_back(&block.allocation);
  std::sort(alive.begin(), alive.end(), [](const MemoryRecord* a, const MemoryRecord* b) {
    if (a->bytes != b->bytes) return a->bytes > b->bytes;
    return a->time_ns != b->time_ns ? a->time_ns < b->time_ns : a->address < b->address;
  });
  return alive;
}

void AddMemoryFigures(const AnalysisContext& window, MemoryFigures* figures) {
  const TraceModel& model = *window.model;
  const size_t first_step = figures->step_high_water.size();
  for (uint32_t step : window.steps) {
    figures->step_high_water.push_back({std::string(model.names.Get(model.ranges[step].name)), {}});
  }
  for (uint32_t index : IndicesByTime(model.memory)) {
    const MemoryRecord& record = model.memory[index];
    const MemoryChange change = figures->live.Apply(record);  // the one pairing rule
    const std::string place = MemoryPlaceName(change.place);
    MemoryPlace& figure = figures->places[place];
    if (change.unmatched_free) continue;
    if (change.ended) {
      MemoryPlace& owner = figures->places[MemoryPlaceName(change.ended->place)];
      owner.live_bytes = figures->live.LiveBytes(change.ended->place);
      if (!change.replaced) {
        ++owner.frees;
        owner.freed_bytes += change.ended->allocation.bytes;
      }
    }
    if (change.allocated) {
      ++figure.allocations;
      figure.allocated_bytes += record.bytes;
      figure.live_bytes = figures->live.LiveBytes(change.place);
    }
    figure.peak_bytes = std::max(figure.peak_bytes, figure.live_bytes);
    const int step = FindStep(window, record.time_ns);
    if (step >= 0) {
      uint64_t& high = figures->step_high_water[first_step + step].places[place];
      high = std::max(high, figure.live_bytes);
    }
  }
}

std::vector<SummaryTable> MemorySummaries(const MemoryFigures& figures,
                                          const RenderContext& context) {
  std::vector<SummaryTable> tables;
  if (figures.places.empty()) return tables;
  tables.push_back(PlaceTable(figures));
  bool any_step = false;
  for (const StepHighWater& step : figures.step_high_water) any_step |= !step.places.empty();
  if (any_step) tables.push_back(StepTable(figures));
  if (!figures.live.blocks().empty()) tables.push_back(LeakTable(figures, context));
  return tables;
}

}  // namespace prof::analyzer
