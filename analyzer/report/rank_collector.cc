#include "analyzer/report/rank_collector.h"

#include <algorithm>
#include <utility>

#include "analyzer/report/sampled_memory.h"
#include "analyzer/report/step_figures.h"
#include "analyzer/report/top_items.h"
#include "analyzer/tree/range_tree.h"

namespace prof::analyzer::report {
namespace {

// The summaries the report reads figures from (the rest it computes itself).
ViewSet ReportViews() { return {View::kDevice, View::kDistributed}; }

uint64_t LatestTime(const TraceModel& window) {
  uint64_t latest = 0;
  for (const HostRange& range : window.ranges) latest = std::max(latest, range.end_ns);
  for (const DeviceActivity& activity : window.device_activities)
    latest = std::max(latest, activity.end_ns);
  for (const MemoryRecord& record : window.memory) latest = std::max(latest, record.time_ns);
  return latest;
}

// "GPU<d>" rows of the Device Summary, whose cells are (name, ratio).
void ReadUtilization(const ProcessReport& report, RankFigures* figures) {
  for (const SummaryTable& table : report.tables) {
    if (table.key != "device") continue;
    for (const Row& row : table.rows) {
      if (row.kind != Row::Kind::kData || row.cells.size() < 2) continue;
      if (row.cells[0].text.rfind("GPU", 0) != 0) continue;
      figures->gpu_utilization[row.cells[0].text] = row.cells[1].value;
    }
  }
}

}  // namespace

void AddQuality(const DataQuality& quality, QualityFigures* figures) {
  for (const auto& [kind, count] : quality.losses) figures->losses[kind] += count;
  for (const auto& [kind, count] : quality.unmatched_device_records) {
    figures->unmatched_device_records[kind] += count;
  }
  figures->chunks_missing += quality.chunks_missing;
  figures->bytes_skipped += quality.bytes_skipped;
  figures->files_without_last_chunk += quality.files_without_last_chunk;
  figures->malformed += quality.malformed_blocks + quality.malformed_columns +
                        quality.unknown_dictionary_references + quality.dropped_definitions;
  figures->reader_issues.insert(figures->reader_issues.end(), quality.reader_issues.begin(),
                                quality.reader_issues.end());
}

RankCollector::RankCollector() : analysis_(SummaryOptions{}, ReportViews()) {}

void RankCollector::AddWindow(TraceModel window) {
  if (windows_++ == 0) {
    figures_.rank = window.identity.rank;
    figures_.host = window.identity.host;
    figures_.pid = window.identity.pid;
  }
  figures_.files.insert(figures_.files.end(), window.files.begin(), window.files.end());
  std::vector<StepFigures> steps;
  AddStepFigures(window, &steps, &busy_carry_);
  memory_.AddWindow(window, steps, figures_.steps.size());
  const size_t first_step = figures_.steps.size();
  figures_.steps.insert(figures_.steps.end(), steps.begin(), steps.end());
  AddSampledMemory(window, figures_.steps, first_step, &figures_.sampled_memory);
  AddKernelTimes(window, &figures_.kernels);
  // The tree also recounts the tree's quality counters, which ProcessAnalysis sets again
  // when it builds its own: they are not added twice.
  const RangeTree tree = BuildRangeTree(&window);
  AddOperatorTimes(window, tree, &figures_.operators);
  AddQuality(window.quality, &figures_.quality);
  last_time_ns_ = std::max(last_time_ns_, LatestTime(window));
  analysis_.AddWindow(std::move(window));
}

RankFigures RankCollector::Finish(ProcessReport* report_out) && {
  figures_.quality.frees_without_allocation = memory_.frees_without_allocation();
  figures_.memory = std::move(memory_).Finish(last_time_ns_, figures_.steps.size());
  ProcessReport report = std::move(analysis_).Finish();
  ReadUtilization(report, &figures_);
  figures_.total_ns = report.total_ns;
  figures_.communication_ns = report.communication_ns;
  figures_.computation_ns = report.computation_ns;
  figures_.overlap_ns = report.overlap_ns;
  if (report_out != nullptr) *report_out = std::move(report);
  return std::move(figures_);
}

}  // namespace prof::analyzer::report
