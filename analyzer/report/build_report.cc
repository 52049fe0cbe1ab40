#include "analyzer/report/build_report.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "analyzer/read/input_paths.h"
#include "analyzer/read/process_files.h"
#include "analyzer/report/figures_json.h"
#include "analyzer/report/html_page.h"
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
    if (read > 0) run.ranks.push_back(std::move(collector).Finish());
  }
  // Unranked processes (rank -1) after the ranked ones.
  std::stable_sort(run.ranks.begin(), run.ranks.end(), [](const RankFigures& a, const RankFigures& b) {
    const auto key = [](const RankFigures& r) { return std::make_tuple(r.rank < 0, r.rank, r.host, r.pid); };
    return key(a) < key(b);
  });
  return run;
}

std::string RenderReport(const CollectedRun& run, const std::string& title) {
  return RenderHtmlPage(title, FiguresJson(run.ranks, run.unreadable));
}

}  // namespace prof::analyzer::report
