#include "analyzer/python/analysis_session.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/render/text_renderer.h"

namespace prof::analyzer {

absl::StatusOr<Session> AnalyzeSession(const SummaryCommandOptions& options) {
  if (options.paths.empty())
    return absl::InvalidArgumentError("give at least one trace file or folder");
  absl::StatusOr<SummaryResult> result = AnalyzeSummary(options);
  if (!result.ok()) {
    if (absl::IsInvalidArgument(result.status())) return result.status();
    return absl::NotFoundError(result.status().message());
  }
  const AnalyzedInputs& inputs = result->inputs;
  if (inputs.reports.empty()) {
    if (options.window >= 0 && inputs.unreadable.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("no recording window ", options.window, " in the inputs"));
    }
    return absl::FailedPreconditionError(inputs.unreadable.empty()
                                             ? "nothing could be read"
                                             : absl::StrJoin(inputs.unreadable, "\n"));
  }
  Session session;
  session.options = options;
  session.result = *std::move(result);
  // As the summary command: the cross-rank table with several processes, when asked for.
  if (session.reports().size() > 1 && session.result.views.count(View::kDistributed)) {
    session.ranks = RankSummary(session.reports());
  }
  return session;
}

absl::StatusOr<std::string> SessionText(const Session& session,
                                        std::optional<std::string> time_unit,
                                        std::optional<int> rank) {
  SummaryCommandOptions options = session.options;
  if (time_unit) options.time_unit = *time_unit;
  if (rank) options.rank = *rank;
  if (!ParseTimeUnit(options.time_unit).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("time_unit: '", options.time_unit, "' is not one of s, ms, us, ns"));
  }
  return RenderSummary(options, session.result);
}

}  // namespace prof::analyzer
