// Text output of `profanalyze compare`.
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analyzer/compare/compare_renderers.h"
#include "analyzer/compare/value_format.h"

namespace prof::analyzer::compare {
namespace {

constexpr size_t kNameWidth = 56;

std::string Cut(const std::string& text, size_t width) {
  return text.size() <= width ? text : absl::StrCat(text.substr(0, width - 3), "...");
}

std::string RunLine(const char* side, const RunInfo& run) {
  return absl::StrFormat("  %-5s %d process(es), %d step(s), %d events  (%s)\n", side,
                         run.processes, run.steps, run.events, absl::StrJoin(run.paths, " "));
}

std::string RulesSection(const CompareReport& report) {
  if (report.rules.empty()) return "Rules: none given (--fail-on); nothing can fail\n\n";
  std::string text = "Rules\n";
  for (const RuleResult& result : report.rules) {
    std::string verdict = VerdictName(result.verdict);
    if (result.verdict == Verdict::kFail) verdict = "FAIL";
    absl::StrAppendFormat(&text, "  %-10s %s\n", verdict, result.rule.text);
    for (const ItemResult* item : ShownItems(result, 5)) {
      absl::StrAppend(&text, "             ", DescribeItem(result.rule, *item), "\n");
    }
  }
  return absl::StrCat(text, "\n");
}

std::string ChangesTable(const CompareReport& report, int top) {
  const size_t rows =
      top > 0 ? std::min<size_t>(top, report.metrics.size()) : report.metrics.size();
  std::vector<std::vector<std::string>> cells = {
      {"Metric", "Base", "New", "Change", absl::StrFormat("CI (%g%%)", report.confidence * 100),
       "Noise base / new", "Steps"}};
  for (size_t i = 0; i < rows; ++i) {
    const MetricDiff& diff = report.metrics[i];
    const MetricUnit unit = UnitOf(diff.key.family);
    cells.push_back({Cut(DisplayName(diff.key), kNameWidth),
                     FormatValue(unit, diff.shift.base.median),
                     FormatValue(unit, diff.shift.candidate.median), FormatChange(diff),
                     FormatInterval(diff), FormatNoise(diff),
                     absl::StrCat(diff.shift.base.count, " / ", diff.shift.candidate.count)});
  }
  std::vector<size_t> widths(cells[0].size(), 0);
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string text = absl::StrFormat("Changes by impact (median per step; %d of %d metrics)\n",
                                     rows, report.metrics.size());
  for (const auto& row : cells) {
    absl::StrAppend(&text, " ");
    for (size_t c = 0; c < row.size(); ++c) {
      const size_t pad = widths[c] - row[c].size();
      absl::StrAppend(&text, " ",
                      c == 0 ? row[c] + std::string(pad, ' ') : std::string(pad, ' ') + row[c],
                      " ");
    }
    absl::StrAppend(&text, "\n");
  }
  return absl::StrCat(text, "\n");
}

}  // namespace

std::string RenderCompareText(const CompareReport& report, int top) {
  std::string text = "profanalyze compare\n";
  absl::StrAppend(&text, RunLine("base:", report.base), RunLine("new:", report.candidate));
  absl::StrAppendFormat(
      &text,
      "  change = median(new) - median(base) per step; CI: %g%% rank-test (Hodges-Lehmann) "
      "interval of the shift;\n  noise: robust step-to-step spread (1.4826 x MAD) over the "
      "median; a rule fails only beyond both\n  its threshold and the noise\n\n",
      report.confidence * 100);
  absl::StrAppend(&text, RulesSection(report), ChangesTable(report, top));
  if (!report.warnings.empty()) {
    absl::StrAppend(&text, "Warnings\n");
    for (const std::string& warning : report.warnings)
      absl::StrAppend(&text, "  - ", warning, "\n");
    absl::StrAppend(&text, "\n");
  }
  return absl::StrCat(text, Conclusion(report), "\n");
}

std::vector<const ItemResult*> ShownItems(const RuleResult& result, size_t limit) {
  std::vector<const ItemResult*> shown;
  for (const ItemResult& item : result.items) {
    if (item.verdict == Verdict::kFail || item.verdict == Verdict::kUndecided)
      shown.push_back(&item);
    if (shown.size() == limit) break;
  }
  if (shown.empty() && !result.items.empty()) shown.push_back(&result.items.front());
  return shown;
}

std::string Conclusion(const CompareReport& report) {
  std::vector<std::string> broken;
  for (const RuleResult& result : report.rules) {
    if (result.verdict == Verdict::kFail) broken.push_back(result.rule.text);
  }
  if (!broken.empty()) {
    return absl::StrFormat("FAIL: %d of %d rule(s) broken (%s)", broken.size(), report.rules.size(),
                           absl::StrJoin(broken, ", "));
  }
  return absl::StrFormat("PASS: %d rule(s) hold", report.rules.size());
}

}  // namespace prof::analyzer::compare
