#include "analyzer/render/report_text.h"

#include "absl/strings/str_cat.h"

namespace prof::analyzer {
namespace {

std::string ProcessBanner(const ProcessReport& report) {
  const std::string who =
      report.identity.rank >= 0 ? absl::StrCat("Rank ", report.identity.rank, " ") : "";
  return absl::StrCat(std::string(20, '='), " ", who, "(host ", report.identity.host, ", pid ",
                      report.identity.pid, ", ", report.files.size(), " file(s), ",
                      report.event_count, " events) ", std::string(20, '='), "\n\n");
}

}  // namespace

std::string RenderReportsText(const std::vector<ProcessReport>& reports,
                              const std::optional<SummaryTable>& ranks, TimeUnit unit,
                              int only_rank) {
  std::string text;
  if (ranks) text += RenderTable(*ranks, unit);
  for (const ProcessReport& report : reports) {
    if (only_rank >= 0 && report.identity.rank != only_rank) continue;
    if (reports.size() > 1) text += ProcessBanner(report);
    for (const SummaryTable& table : report.tables) text += RenderTable(table, unit);
  }
  return text;
}

std::string RenderTablesText(const std::vector<SummaryTable>& tables, TimeUnit unit) {
  std::string text;
  for (const SummaryTable& table : tables) text += RenderTable(table, unit);
  return text;
}

}  // namespace prof::analyzer
