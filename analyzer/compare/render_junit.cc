// JUnit XML output of `profanalyze compare`: one <testcase> per rule, so a CI system
// lists each rule as a test; a broken rule carries a <failure> naming the metrics that
// broke it, an undecided one (too few steps) or one matching nothing is <skipped>.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/compare/compare_renderers.h"
#include "analyzer/compare/value_format.h"

namespace prof::analyzer::compare {
namespace {

std::string Escape(absl::string_view text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string Details(const RuleResult& result) {
  std::string details;
  for (const ItemResult* item : ShownItems(result, 20))
    absl::StrAppend(&details, DescribeItem(result.rule, *item), "\n");
  return details;
}

std::string TestCase(const RuleResult& result) {
  std::string xml =
      absl::StrFormat("    <testcase classname=\"profanalyze.compare\" name=\"%s\" time=\"0\"",
                      Escape(result.rule.text));
  const std::string details = Escape(Details(result));
  switch (result.verdict) {
    case Verdict::kFail: {
      const ItemResult* worst = ShownItems(result, 1).front();
      return absl::StrFormat(
          "%s>\n      <failure message=\"%s %s\" type=\"regression\">%s</failure>\n    "
          "</testcase>\n",
          xml, Escape(DisplayName(worst->diff.key)), Escape(FormatRuleChange(result.rule, *worst)),
          details);
    }
    case Verdict::kUndecided:
      return absl::StrFormat(
          "%s>\n      <skipped message=\"too few steps to decide\"/>\n      "
          "<system-out>%s</system-out>\n"
          "    </testcase>\n",
          xml, details);
    case Verdict::kNoMatch:
      return absl::StrCat(
          xml, ">\n      <skipped message=\"the rule matched no metric\"/>\n    </testcase>\n");
    case Verdict::kPass: break;
  }
  return absl::StrFormat("%s>\n      <system-out>%s</system-out>\n    </testcase>\n", xml, details);
}

}  // namespace

std::string RenderCompareJunit(const CompareReport& report) {
  int failures = 0, skipped = 0;
  for (const RuleResult& result : report.rules) {
    failures += result.verdict == Verdict::kFail;
    skipped += result.verdict == Verdict::kUndecided || result.verdict == Verdict::kNoMatch;
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  absl::StrAppendFormat(&xml, "<testsuites tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
                        report.rules.size(), failures, skipped);
  absl::StrAppendFormat(
      &xml,
      "  <testsuite name=\"profanalyze compare\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
      "skipped=\"%d\">\n",
      report.rules.size(), failures, skipped);
  for (const RuleResult& result : report.rules) absl::StrAppend(&xml, TestCase(result));
  if (!report.warnings.empty()) {
    std::string warnings;
    for (const std::string& warning : report.warnings)
      absl::StrAppend(&warnings, "warning: ", warning, "\n");
    absl::StrAppend(&xml, "    <system-err>", Escape(warnings), "</system-err>\n");
  }
  return absl::StrCat(xml, "  </testsuite>\n</testsuites>\n");
}

}  // namespace prof::analyzer::compare
