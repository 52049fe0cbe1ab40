#include "analyzer/report/build_report.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <tuple>
#include <utility>

#include "analyzer/job/job_partial.h"
#include "analyzer/pipeline/run_processes.h"
#include "analyzer/report/figures_json.h"
#include "analyzer/report/html_page.h"
#include "analyzer/report/rank_collector.h"

namespace prof::analyzer::report {
namespace {

// The report as a pipeline consumer: one RankCollector per process, whose figures and
// ProcessReport go to `done` (with the process's index) when a window was read.
class RankConsumer : public ProcessConsumer {
 public:
  using Done = std::function<void(size_t process, RankFigures figures, ProcessReport report)>;
  RankConsumer(size_t process, const Done* done) : process_(process), done_(done) {}
  void AddWindow(TraceModel window) override { collector_.AddWindow(std::move(window)); }
  void Finish(const ProcessOutcome& outcome) override {
    if (outcome.files_read == 0) return;
    ProcessReport report;
    RankFigures figures = std::move(collector_).Finish(&report);
    (*done_)(process_, std::move(figures), std::move(report));
  }

 private:
  RankCollector collector_;
  size_t process_;
  const Done* done_;
};

// What a rank without charts of its own keeps: the job layout's heat map and tables come
// from the job partial, the picker's keys and the banner's counts from these.
void Slim(RankFigures* figures) {
  figures->kernels.clear();
  figures->operators.clear();
  figures->memory.clear();
  figures->sampled_memory.clear();
}

// Unranked processes (rank -1) after the ranked ones; the order of `ranks` as indices.
std::vector<size_t> ReportOrder(const std::vector<RankFigures>& ranks) {
  std::vector<size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), 0);
  const auto key = [&ranks](size_t i) {
    const RankFigures& r = ranks[i];
    return std::make_tuple(r.rank < 0, r.rank, r.host, r.pid);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&key](size_t a, size_t b) { return key(a) < key(b); });
  return order;
}

// RankCollector merges windows as ProcessAnalysis does: a large window comes in slices.
RunOptions SlicedReading() {
  RunOptions options;
  options.slices = SliceOptions();
  return options;
}

// The charted ranks of a job layout, read again (their files were reported already).
void ReadChartedRanks(const Inputs& inputs, const std::vector<size_t>& sources, CollectedRun* run) {
  Inputs charted;
  for (const ChartedRank& rank : run->layout->charted) {
    charted.processes.push_back(inputs.processes[sources[rank.run_index]]);
  }
  const RankConsumer::Done done = [run](size_t i, RankFigures figures, ProcessReport) {
    run->ranks[run->layout->charted[i].run_index] = std::move(figures);
  };
  RunProcesses(charted, SlicedReading(),
               [&done](size_t i) { return std::make_unique<RankConsumer>(i, &done); });
}

}  // namespace

absl::StatusOr<CollectedRun> CollectRun(const std::vector<std::string>& paths) {
  absl::StatusOr<Inputs> inputs = OpenInputs(paths);
  if (!inputs.ok()) return inputs.status();
  CollectedRun run;
  const bool job = UsesJobLayout(inputs->processes.size());
  std::vector<RankFigures> ranks;
  std::vector<size_t> sources;  // ranks[i] read from inputs->processes[sources[i]]
  // One process at a time (RunOptions' one thread): each merges its part of the job view
  // in order, and a job's rank keeps only its slim figures, before the next is read.
  const RankConsumer::Done done = [&](size_t i, RankFigures figures, ProcessReport report) {
    if (job) Slim(&figures);
    ranks.push_back(std::move(figures));
    sources.push_back(i);
    std::vector<ProcessReport> one;
    one.push_back(std::move(report));
    MergeJobPartial(JobPartialOf(one, {}), &run.job);
  };
  RunSummary read = RunProcesses(*inputs, SlicedReading(), [&done](size_t i) {
    return std::make_unique<RankConsumer>(i, &done);
  });
  run.unreadable = std::move(read.unreadable);
  MergeJobPartial(JobPartialOf({}, run.unreadable), &run.job);
  std::vector<size_t> ordered_sources;
  for (size_t i : ReportOrder(ranks)) {
    run.ranks.push_back(std::move(ranks[i]));
    ordered_sources.push_back(sources[i]);
  }
  if (!job) return run;
  run.layout = BuildJobLayout(run.job, run.ranks);
  ReadChartedRanks(*inputs, ordered_sources, &run);
  return run;
}

std::string RenderReport(const CollectedRun& run, const std::string& title) {
  if (!run.layout) return RenderHtmlPage(title, FiguresJson(run.ranks, run.unreadable));
  std::vector<const RankFigures*> charted;
  for (const ChartedRank& rank : run.layout->charted) charted.push_back(&run.ranks[rank.run_index]);
  return RenderHtmlPage(title, FiguresJson(charted, run.unreadable, &*run.layout));
}

}  // namespace prof::analyzer::report
