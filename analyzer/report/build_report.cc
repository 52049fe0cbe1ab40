#include "analyzer/report/build_report.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

#include "analyzer/job/job_partial.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/report/figures_json.h"
#include "analyzer/report/html_page.h"
#include "analyzer/report/rank_collector.h"

namespace prof::analyzer::report {
namespace {

// One process's figures; nullopt when none of its files could be read.
std::optional<RankFigures> CollectProcess(const ProcessFiles& process, std::vector<std::string>* unreadable,
                                          ProcessReport* report) {
  RankCollector collector;
  const size_t read = ForEachWindow(
      process, [&collector](TraceModel window) { collector.AddWindow(std::move(window)); }, unreadable);
  if (read == 0) return std::nullopt;
  return std::move(collector).Finish(report);
}

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
  std::stable_sort(order.begin(), order.end(), [&key](size_t a, size_t b) { return key(a) < key(b); });
  return order;
}

}  // namespace

absl::StatusOr<CollectedRun> CollectRun(const std::vector<std::string>& paths) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  CollectedRun run;
  const std::vector<ProcessFiles> processes = GroupFilesByProcess(*files, &run.unreadable);
  const bool job = UsesJobLayout(processes.size());
  std::vector<RankFigures> ranks;
  std::vector<size_t> sources;  // ranks[i] read from processes[sources[i]]
  for (size_t i = 0; i < processes.size(); ++i) {
    std::vector<ProcessReport> report(1);
    std::optional<RankFigures> figures = CollectProcess(processes[i], &run.unreadable, &report[0]);
    if (!figures) continue;
    if (job) Slim(&*figures);
    ranks.push_back(std::move(*figures));
    sources.push_back(i);
    MergeJobPartial(JobPartialOf(report, {}), &run.job);
  }
  MergeJobPartial(JobPartialOf({}, run.unreadable), &run.job);
  std::vector<size_t> ordered_sources;
  for (size_t i : ReportOrder(ranks)) {
    run.ranks.push_back(std::move(ranks[i]));
    ordered_sources.push_back(sources[i]);
  }
  if (!job) return run;
  run.layout = BuildJobLayout(run.job, run.ranks);
  for (const ChartedRank& charted : run.layout->charted) {
    std::vector<std::string> reported;  // by the first read already
    std::optional<RankFigures> whole = CollectProcess(processes[ordered_sources[charted.run_index]], &reported, nullptr);
    if (whole) run.ranks[charted.run_index] = std::move(*whole);
  }
  return run;
}

std::string RenderReport(const CollectedRun& run, const std::string& title) {
  if (!run.layout) return RenderHtmlPage(title, FiguresJson(run.ranks, run.unreadable));
  std::vector<const RankFigures*> charted;
  for (const ChartedRank& rank : run.layout->charted) charted.push_back(&run.ranks[rank.run_index]);
  return RenderHtmlPage(title, FiguresJson(charted, run.unreadable, &*run.layout));
}

}  // namespace prof::analyzer::report
