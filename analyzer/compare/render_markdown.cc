// Markdown output of `profanalyze compare`, for a pull-request comment: the verdict, a
// table of rules, the largest changes, and the warnings.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/compare/compare_renderers.h"
#include "analyzer/compare/value_format.h"

namespace prof::analyzer::compare {
namespace {

// Table cells must not break the row: escape pipes, keep names in code spans.
std::string Code(const std::string& text) {
  std::string escaped;
  for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return absl::StrCat("`", escaped, "`");
}

std::string RulesTable(const CompareReport& report) {
  if (report.rules.empty()) return "No rules given (`--fail-on`).\n\n";
  std::string text =
      "| Rule | Verdict | Metric | Change | CI | Steps |\n|---|---|---|---|---|---|\n";
  for (const RuleResult& result : report.rules) {
    const std::vector<const ItemResult*> items = ShownItems(result, 5);
    const std::string verdict =
        result.verdict == Verdict::kFail ? "**FAIL**" : VerdictName(result.verdict);
    if (items.empty()) {
      absl::StrAppend(&text, "| ", Code(result.rule.text), " | ", verdict, " | - | - | - | - |\n");
      continue;
    }
    for (const ItemResult* item : items) {
      const ShiftEstimate& shift = item->diff.shift;
      absl::StrAppendFormat(&text, "| %s | %s | %s | %s (%s) | %s at %.1f%% | %d / %d |\n",
                            Code(result.rule.text), verdict, Code(DisplayName(item->diff.key)),
                            FormatRuleChange(result.rule, *item), item->reason,
                            FormatRuleInterval(result.rule, *item), shift.confidence * 100,
                            shift.base.count, shift.candidate.count);
    }
  }
  return absl::StrCat(text, "\n");
}

std::string ChangesTable(const CompareReport& report, int top) {
  const size_t rows =
      top > 0 ? std::min<size_t>(top, report.metrics.size()) : report.metrics.size();
  std::string text = absl::StrFormat(
      "<details><summary>Largest changes (%d of %d metrics, median per step)</summary>\n\n"
      "| Metric | Base | New | Change | CI | Noise base / new |\n|---|---:|---:|---:|---|---|\n",
      rows, report.metrics.size());
  for (size_t i = 0; i < rows; ++i) {
    const MetricDiff& diff = report.metrics[i];
    const MetricUnit unit = UnitOf(diff.key.family);
    absl::StrAppend(&text, "| ", Code(DisplayName(diff.key)), " | ",
                    FormatValue(unit, diff.shift.base.median), " | ",
                    FormatValue(unit, diff.shift.candidate.median), " | ", FormatChange(diff),
                    " | ", FormatInterval(diff), " | ", FormatNoise(diff), " |\n");
  }
  return absl::StrCat(text, "\n</details>\n\n");
}

}  // namespace

std::string RenderCompareMarkdown(const CompareReport& report, int top) {
  std::string text = absl::StrFormat("### profanalyze compare: %s\n\n",
                                     report.Failed() ? "❌ regression" : "✅ no regression");
  absl::StrAppendFormat(
      &text,
      "%s. Base: %d process(es), %d steps; new: %d process(es), %d steps; %g%% confidence.\n\n",
      Conclusion(report), report.base.processes, report.base.steps, report.candidate.processes,
      report.candidate.steps, report.confidence * 100);
  absl::StrAppend(&text, RulesTable(report), ChangesTable(report, top));
  for (const std::string& warning : report.warnings)
    absl::StrAppend(&text, "> ⚠️ ", warning, "\n");
  return text;
}

}  // namespace prof::analyzer::compare
