#include "analyzer/python/analysis_session.h"

#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/render/report_text.h"

namespace prof::analyzer {
namespace {

// The --sorted-by values (summary_command.cc), which are also paddle's SortedKeys names.
absl::StatusOr<SortKey> ParseSortKey(const std::string& name) {
  static const auto* keys = new std::map<std::string, SortKey>{
      {"CPUTotal", SortKey::kCpuTotal}, {"CPUAvg", SortKey::kCpuAvg}, {"CPUMax", SortKey::kCpuMax},
      {"CPUMin", SortKey::kCpuMin},     {"GPUTotal", SortKey::kGpuTotal}, {"GPUAvg", SortKey::kGpuAvg},
      {"GPUMax", SortKey::kGpuMax},     {"GPUMin", SortKey::kGpuMin}};
  auto it = keys->find(name);
  if (it != keys->end()) return it->second;
  std::vector<std::string> names;
  for (const auto& entry : *keys) names.push_back(entry.first);
  return absl::InvalidArgumentError(
      absl::StrCat("sorted_by: unknown key '", name, "' (one of ", absl::StrJoin(names, ", "), ")"));
}

}  // namespace

absl::StatusOr<Session> AnalyzeSession(const SessionOptions& options) {
  absl::StatusOr<SortKey> sort_key = ParseSortKey(options.sorted_by);
  if (!sort_key.ok()) return sort_key.status();
  if (options.top < 0 || options.perf_skip < -1 || options.threads < 0) {
    return absl::InvalidArgumentError("top, perf_skip and threads must not be negative");
  }
  if (options.paths.empty()) return absl::InvalidArgumentError("give at least one trace file or folder");
  SummaryOptions summary;
  summary.sorted_by = *sort_key;
  summary.op_detail = options.op_detail;
  summary.thread_sep = options.thread_sep;
  summary.top = options.top;
  summary.perf_skip = options.perf_skip;
  ViewSet views = AllViews();
  if (!options.views.empty()) {
    absl::StatusOr<ViewSet> parsed = ParseViews(options.views);
    if (!parsed.ok()) return absl::InvalidArgumentError(parsed.status().message());
    views = *parsed;
  }
  absl::StatusOr<AnalyzedInputs> inputs = AnalyzeInputs(options.paths, summary, views, options.threads);
  if (!inputs.ok()) return absl::NotFoundError(inputs.status().message());
  if (inputs->reports.empty()) {
    return absl::FailedPreconditionError(
        inputs->unreadable.empty() ? "nothing could be read" : absl::StrJoin(inputs->unreadable, "\n"));
  }
  Session session;
  session.reports = std::move(inputs->reports);
  session.unreadable = std::move(inputs->unreadable);
  session.files_read = inputs->files_read;
  // As RunSummaryCommand: the cross-rank table with several processes, when asked for.
  if (session.reports.size() > 1 && views.count(View::kDistributed)) session.ranks = RankSummary(session.reports);
  return session;
}

std::string SessionText(const Session& session, TimeUnit unit, int only_rank) {
  return RenderReportsText(session.reports, session.ranks, unit, only_rank);
}

}  // namespace prof::analyzer
