#include "analyzer/report/build_report.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "analyzer/job/job_partial.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/report/figures_json.h"
#include "analyzer/report/html_page.h"
#include "analyzer/report/job_layout.h"
#include "analyzer/report/rank_collector.h"

namespace prof::analyzer::report {

absl::StatusOr<CollectedRun> CollectRun(const std::vector<std::string>& paths) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  CollectedRun run;
  const std::vector<ProcessFiles> processes = GroupFilesByProcess(*files, &run.unreadable);
  for (const ProcessFiles& process : processes) {
    RankCollector collector;
    const size_t read = ForEachWindow(
        process, [&collector](TraceModel window) { collector.AddWindow(std::move(window)); }, &run.unreadable);
    if (read == 0) continue;
    std::vector<ProcessReport> report(1);
    run.ranks.push_back(std::move(collector).Finish(&report[0]));
    MergeJobPartial(JobPartialOf(report, {}), &run.job);
  }
  MergeJobPartial(JobPartialOf({}, run.unreadable), &run.job);
  // Unranked processes (rank -1) after the ranked ones.
  std::stable_sort(run.ranks.begin(), run.ranks.end(), [](const RankFigures& a, const RankFigures& b) {
    const auto key = [](const RankFigures& r) { return std::make_tuple(r.rank < 0, r.rank, r.host, r.pid); };
    return key(a) < key(b);
  });
  return run;
}

std::string RenderReport(const CollectedRun& run, const std::string& title) {
  if (!UsesJobLayout(run)) return RenderHtmlPage(title, FiguresJson(run.ranks, run.unreadable));
  const JobLayout layout = BuildJobLayout(run);
  std::vector<const RankFigures*> charted;
  for (const ChartedRank& rank : layout.charted) charted.push_back(&run.ranks[rank.run_index]);
  return RenderHtmlPage(title, FiguresJson(charted, run.unreadable, &layout));
}

}  // namespace prof::analyzer::report
