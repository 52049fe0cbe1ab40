#include "analyzer/job/job_summary_table.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace prof::analyzer {
namespace {

constexpr size_t kNamedMembers = 10;

std::string Ms(double ns) { return absl::StrFormat("%.3f ms", ns / 1e6); }

std::string Who(const JobAnalysis& job, uint32_t index) {
  return absl::StrCat(job.ranks[index].Label(), " (host ", job.ranks[index].host, ")");
}

std::string JobLine(const JobAnalysis& job) {
  const CollectiveMatch& match = job.match;
  return absl::StrFormat(
      "Job: %d rank(s) on %d host(s); %d collective(s) matched by (communicator, sequence): %d "
      "incomplete, "
      "%d mismatched, %d unnumbered call(s), %d duplicate(s); %d unreadable file(s).",
      job.ranks.size(), job.hosts, match.matched, match.incomplete, match.mismatched,
      match.unnumbered, match.duplicates, job.unreadable_files);
}

std::string ClockLine(const JobAnalysis& job) {
  const ClockFit& clock = job.clock;
  if (clock.fitted_collectives == 0)
    return "Clock: not aligned (no complete N-to-N collective matched).";
  const size_t unfitted = std::count_if(clock.ranks.begin(), clock.ranks.end(),
                                        [](const RankClock& rank) { return !rank.fitted; });
  return absl::StrFormat(
      "Clock: aligned to %s on %d N-to-N collective end(s) (offset and drift per rank); residual "
      "p50 %s, p99 %s, "
      "max %s; %d clock violation(s) in %d collective(s) (tolerance %s); %d rank(s) not aligned.",
      job.ranks[clock.reference].Label(), clock.fitted_collectives, Ms(clock.residual_p50_ns),
      Ms(clock.residual_p99_ns), Ms(clock.residual_max_ns), clock.violations, clock.checked,
      Ms(kClockViolationToleranceNs), unfitted);
}

std::string StragglerLine(const JobAnalysis& job) {
  const StragglerAnalysis& analysis = job.stragglers;
  if (analysis.stragglers.empty())
    return "Straggler: none (no step has a rank computing longer than the median).";
  const StragglerEntry& worst = analysis.stragglers.front();
  return absl::StrFormat(
      "Straggler: %s: %s of excess compute, slowest in %d of %d step(s) (worst: step %d, +%s).",
      Who(job, worst.rank_index), Ms(worst.excess_ns), worst.steps_slowest,
      analysis.worst_steps.size(), worst.worst_step, Ms(worst.worst_excess_ns));
}

std::string LastArrivalLine(const JobAnalysis& job) {
  const StragglerAnalysis& analysis = job.stragglers;
  if (analysis.last_arrivals.empty())
    return "Last to arrive: none (no complete N-to-N collective on aligned clocks).";
  const LastArrival& worst = analysis.last_arrivals.front();
  return absl::StrFormat(
      "Last to arrive: %s: last at %d of %d collective(s); the others waited %s for it.",
      Who(job, worst.rank_index), worst.times_last, analysis.analyzed_collectives,
      Ms(worst.wait_caused_ns));
}

// "rank 5, rank 9 and 3 more"; "-" for the largest group (not listed, as NCCL RAS does).
std::string Members(const JobAnalysis& job, const QualityGroup& group, bool largest) {
  if (largest && job.quality.size() > 1) return "-";
  if (largest && group.rank_indices.size() > kNamedMembers) return "all";
  std::string names;
  const size_t shown = std::min(group.rank_indices.size(), kNamedMembers);
  for (size_t i = 0; i < shown; ++i)
    absl::StrAppend(&names, i ? ", " : "", job.ranks[group.rank_indices[i]].Label());
  if (group.rank_indices.size() > shown)
    absl::StrAppend(&names, " and ", group.rank_indices.size() - shown, " more");
  return names;
}

}  // namespace

SummaryTable JobSummaryTable(const JobAnalysis& job) {
  SummaryTable table;
  table.key = "summary";
  table.title = "Job Summary";
  table.preamble = {JobLine(job), ClockLine(job), StragglerLine(job), LastArrivalLine(job)};
  table.columns = {
      {"Ranks", "ranks", 6}, {"Data Quality", "state", 20}, {"Members", "members", 10}};
  for (size_t i = 0; i < job.quality.size(); ++i) {
    const QualityGroup& group = job.quality[i];
    table.AddRow({Cell::Count(group.rank_indices.size()), Cell::Text(group.state),
                  Cell::Text(Members(job, group, i == 0))});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "Ranks grouped by the state of their data; --rank N prints one rank's tables, --all-ranks "
      "all of them."};
  return table;
}

}  // namespace prof::analyzer
