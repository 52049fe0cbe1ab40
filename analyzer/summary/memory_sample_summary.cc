#include "analyzer/summary/memory_sample_summary.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "analyzer/summary/by_time.h"

namespace prof::analyzer {
namespace {

std::string PlaceOf(int32_t device) {
  return device >= 0 ? absl::StrCat("GPU", device) : std::string("Host");
}

// The value a place's peak is tracked by: the allocator's own peak, or the host's RSS.
uint64_t PeakValue(const MemorySample& sample) {
  return sample.device >= 0 ? sample.peak : sample.rss;
}

void TrackPeak(const MemorySample& sample, const std::string& step, MemorySampleFigures* figures) {
  auto [peak, first] = figures->peaks.try_emplace(sample.device);
  const uint64_t value = PeakValue(sample);
  if (first) {
    peak->second = {value, step, true};
  } else if (value > peak->second.bytes) {
    peak->second = {value, step, false};
  }
}

// True when `time` falls in the window's set-up step (left out of window.steps).
bool InSetup(const AnalysisContext& window, uint64_t time) {
  if (window.setup_step == kNoIndex) return false;
  const HostRange& setup = window.model->ranges[window.setup_step];
  return time >= setup.start_ns && time < setup.end_ns;
}

SummaryTable StepTable(const MemorySampleFigures& figures) {
  SummaryTable table;
  table.key = "memory_allocator_steps";
  table.title = "Memory per Step (device allocator and host RSS, at the step's end)";
  table.time_unit_line = false;
  table.columns = {{"Step", "step", 16},
                   {"Place", "place", 8},
                   {"Allocated", "allocated_bytes", 12},
                   {"Reserved", "reserved_bytes", 12},
                   {"Peak", "peak_bytes", 12},
                   {"Host RSS", "rss_bytes", 12}};
  for (const StepMemory& step : figures.steps) {
    for (const auto& [device, sample] : step.last) {
      if (device >= 0) {
        table.AddRow({Cell::Text(step.step), Cell::Text(PlaceOf(device)),
                      Cell::Bytes(sample.allocated), Cell::Bytes(sample.reserved),
                      Cell::Bytes(sample.peak), Cell::Dash()});
      } else {
        table.AddRow({Cell::Text(step.step), Cell::Text(PlaceOf(device)), Cell::Dash(),
                      Cell::Dash(), Cell::Dash(), Cell::Bytes(sample.rss)});
      }
    }
  }
  table.ending = TableEnding::kBlank;
  return table;
}

SummaryTable PeakTable(const MemorySampleFigures& figures) {
  SummaryTable table;
  table.key = "memory_allocator_peak";
  table.title = "Memory Peak by Place";
  table.time_unit_line = false;
  table.columns = {{"Place", "place", 8}, {"Peak", "peak_bytes", 12}, {"Reached In", "step", 16}};
  for (const auto& [device, peak] : figures.peaks) {
    // Already at its peak when first sampled: the peak may be older than the recording.
    const std::string step =
        peak.at_first_sample ? absl::StrCat(peak.step, " or before") : peak.step;
    table.AddRow({Cell::Text(PlaceOf(device)), Cell::Bytes(peak.bytes), Cell::Text(step)});
  }
  table.note = {
      "GPU: the caching allocator's high-water mark of allocated bytes (PyTorch's "
      "max_memory_allocated); Host: the largest resident set size sampled."};
  table.ending = TableEnding::kNote;
  return table;
}

}  // namespace

void AddMemorySampleFigures(const AnalysisContext& window, MemorySampleFigures* figures) {
  const TraceModel& model = *window.model;
  if (model.memory_samples.empty()) return;
  // The window's steps get their StepMemory slot when their first sample comes.
  std::vector<int> slot_of_step(window.steps.size(), -1);
  int stepless_slot = -1;
  int setup_slot = -1;  // the set-up step, shown too: a peak is often reached there
  for (uint32_t index : IndicesByTime(model.memory_samples)) {
    const MemorySample& sample = model.memory_samples[index];
    int* slot = &stepless_slot;
    std::string name = "(no steps)";
    const uint64_t time = sample.step_time_ns();
    if (InSetup(window, time)) {
      slot = &setup_slot;
      name = std::string(model.names.Get(model.ranges[window.setup_step].name)) + " (set-up)";
    } else if (window.has_steps) {
      const int step = FindStep(window, time);
      if (step < 0) continue;  // between steps: no step to show it under
      slot = &slot_of_step[step];
      name = std::string(model.names.Get(model.ranges[window.steps[step]].name));
    }
    if (*slot < 0) {
      *slot = static_cast<int>(figures->steps.size());
      figures->steps.push_back({name, {}});
    }
    figures->steps[*slot].last[sample.device] = sample;
    TrackPeak(sample, name, figures);
  }
}

std::vector<SummaryTable> MemorySampleSummaries(const MemorySampleFigures& figures) {
  std::vector<SummaryTable> tables;
  if (figures.steps.empty()) return tables;
  tables.push_back(StepTable(figures));
  tables.push_back(PeakTable(figures));
  return tables;
}

}  // namespace prof::analyzer
