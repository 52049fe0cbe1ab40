#include "analyzer/summary/perf_summary.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_format.h"
#include "proto/events.h"

namespace prof::analyzer {
namespace {

// Adds a Dataloader range's time inside each step, clipped to the step, to `reader`.
void AddReaderCost(const AnalysisContext& context, const HostRange& range,
                   std::vector<double>* reader) {
  const std::vector<HostRange>& ranges = context.model->ranges;
  int step = FindStep(context, range.start_ns);
  for (; step >= 0 && step < static_cast<int>(context.steps.size()); ++step) {
    const HostRange& window = ranges[context.steps[step]];
    if (window.start_ns >= range.end_ns) break;
    const uint64_t start = std::max(window.start_ns, range.start_ns);
    const uint64_t end = std::min(window.end_ns, range.end_ns);
    if (end > start) (*reader)[step] += (end - start) * 1e-9;
  }
}

// Takes the IPS unit a mark names, if it is the unit's mark and the latest so far.
void NoteIpsUnit(const TraceModel& model, const HostRange& mark, PerfFigures* figures) {
  const size_t prefix = sizeof(kIpsUnitMark) - 1;
  if (mark.start_ns < figures->ips_unit_ns) return;
  const absl::string_view name = model.names.Get(mark.name);
  if (name.size() <= prefix || name.substr(0, prefix) != kIpsUnitMark) return;
  figures->ips_unit = std::string(name.substr(prefix));
  figures->ips_unit_ns = mark.start_ns;
}

void AddRow(const char* name, double avg, const DurationStats& stats, SummaryTable* table) {
  table->AddRow({Cell::Text(name), Cell::Number(avg, 5), Cell::Number(stats.Max(), 5),
                 Cell::Number(stats.Min(), 5)});
}

}  // namespace

int PerfSkippedSteps(int step_count, int perf_skip) {
  if (perf_skip >= 0) return std::min(perf_skip, step_count);
  return step_count > 10 ? 10 : 0;
}

// One walk over the ranges for both the marks and the Dataloader ranges: a window has
// millions of ranges, and each walk over them is memory traffic, not work.
void AddPerfFigures(const AnalysisContext& window, PerfFigures* figures) {
  std::vector<double> reader_per_step(window.steps.size(), 0);
  for (const HostRange& range : window.model->ranges) {
    if (range.type == RangeType::kDataloader) {
      AddReaderCost(window, range, &reader_per_step);
    } else if (range.type == RangeType::kMark) {
      NoteIpsUnit(*window.model, range, figures);
    }
  }
  for (size_t i = 0; i < window.steps.size(); ++i) {
    const HostRange& step = window.model->ranges[window.steps[i]];
    figures->steps.push_back({step.end_ns - step.start_ns, reader_per_step[i], step.sample_count});
  }
}

std::optional<SummaryTable> PerfSummary(const PerfFigures& figures, const RenderContext& context) {
  // The step the agent closed at exit is the program's teardown, not an iteration (paddle's
  // benchmark timer never sees it either): left out here, shown in the other tables.
  const std::vector<PerfStep>& steps = figures.steps;
  int count = static_cast<int>(steps.size());
  const bool closed_at_exit = count > 0 && steps[count - 1].sample_count == kStepOpenAtExit;
  if (closed_at_exit) --count;
  const int skip = PerfSkippedSteps(count, context.options.perf_skip);
  if (count - skip <= 0) return std::nullopt;
  bool samples_mode = true;
  for (int i = skip; i < count; ++i) samples_mode &= steps[i].sample_count > 0;

  DurationStats batch, reader, speed;  // in seconds, not ns
  double samples = 0;
  for (int i = skip; i < count; ++i) {
    const double seconds = steps[i].duration_ns * 1e-9;
    const double work = samples_mode ? static_cast<double>(steps[i].sample_count) : 1.0;
    batch.Add(seconds);
    reader.Add(steps[i].reader_seconds);
    samples += work;
    if (seconds > 0) speed.Add(work / seconds);
  }
  const int kept = count - skip;
  const double batch_avg = batch.total / kept;
  const double reader_avg = reader.total / kept;

  SummaryTable table;
  table.key = "perf";
  table.title = "Perf Summary";
  table.style = TableStyle::kPerf;
  table.time_unit_line = false;
  table.columns = {{"", "name", 15}, {"avg", "avg", 15}, {"max", "max", 15}, {"min", "min", 15}};
  table.preamble.push_back(absl::StrFormat(
      "Steps: %d recorded, first %d skipped as warm-up (--perf-skip), %d measured%s", count, skip,
      kept, closed_at_exit ? " (the step still open at exit is not counted)" : ""));
  if (reader_avg > 0)
    table.preamble.push_back(absl::StrFormat("Reader Ratio: %.3f%%", 100 * reader_avg / batch_avg));
  const std::string unit = figures.ips_unit.empty() ? "samples" : figures.ips_unit;
  table.preamble.push_back(
      absl::StrFormat("Time Unit: s, IPS Unit: %s", samples_mode ? unit + "/s" : "steps/s"));
  if (reader_avg > 0) AddRow("reader_cost", reader_avg, reader, &table);
  AddRow("batch_cost", batch_avg, batch, &table);
  AddRow("ips", batch.total > 0 ? samples / batch.total : 0, speed, &table);
  table.ending = TableEnding::kBlank;
  return table;
}

}  // namespace prof::analyzer
