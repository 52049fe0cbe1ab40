#include "analyzer/compare/rule_parser.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace prof::analyzer::compare {
namespace {

absl::Status Bad(absl::string_view rule, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("bad rule '", rule, "': ", why));
}

struct UnitSpelling {
  const char* text;
  ThresholdUnit unit;
  double scale;  // to the metric's own unit (fraction, points, ns)
};

constexpr UnitSpelling kUnits[] = {
    {"%", ThresholdUnit::kRelative, 0.01}, {"pt", ThresholdUnit::kPoints, 1},
    {"ns", ThresholdUnit::kAbsolute, 1},   {"us", ThresholdUnit::kAbsolute, 1e3},
    {"ms", ThresholdUnit::kAbsolute, 1e6}, {"s", ThresholdUnit::kAbsolute, 1e9},
};

// Splits "METRIC<op>NUMBER<unit>" at its last comparison operator.
struct RuleParts {
  absl::string_view metric, number, unit;
  char op = 0;
};

bool SplitRule(absl::string_view text, RuleParts* parts) {
  size_t end = text.size();
  while (end > 0 &&
         (std::isalpha(static_cast<unsigned char>(text[end - 1])) || text[end - 1] == '%'))
    --end;
  parts->unit = text.substr(end);
  size_t start = end;
  while (start > 0 &&
         (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.'))
    --start;
  if (start == end) return false;
  parts->number = text.substr(start, end - start);
  if (start > 0 && (text[start - 1] == '+' || text[start - 1] == '-')) --start;
  if (start == 0 || (text[start - 1] != '>' && text[start - 1] != '<')) return false;
  parts->op = text[start - 1];
  parts->number = text.substr(start, end - start);
  parts->metric = absl::StripAsciiWhitespace(text.substr(0, start - 1));
  return true;
}

absl::Status CheckUnit(const Rule& rule, absl::string_view unit_text) {
  const MetricUnit unit = UnitOf(rule.family);
  const char* family = FamilyName(rule.family);
  if (rule.unit == ThresholdUnit::kPoints && unit != MetricUnit::kPercent) {
    return Bad(rule.text,
               absl::StrCat("'pt' (percentage points) only applies to gpu_util, not ", family));
  }
  if (rule.unit == ThresholdUnit::kAbsolute && !unit_text.empty() &&
      unit != MetricUnit::kNanoseconds) {
    return Bad(rule.text, absl::StrCat("a time unit needs a time metric; ", family, " is not one"));
  }
  if (unit_text.empty() && (unit == MetricUnit::kNanoseconds || unit == MetricUnit::kPercent)) {
    return Bad(rule.text,
               absl::StrCat(family, " needs a unit: ",
                            unit == MetricUnit::kPercent ? "% or pt" : "%, ns, us, ms or s"));
  }
  return absl::OkStatus();
}

absl::Status ParseMetric(absl::string_view metric, Rule* rule) {
  const size_t colon = metric.find(':');
  const absl::string_view family = metric.substr(0, colon);
  if (!ParseFamily(family, &rule->family)) {
    return Bad(rule->text,
               absl::StrCat("unknown metric '", family, "' (known: ", KnownFamilies(), ")"));
  }
  if (colon != absl::string_view::npos) rule->pattern = std::string(metric.substr(colon + 1));
  const bool named = colon != absl::string_view::npos;
  if (named && rule->pattern.empty()) return Bad(rule->text, "empty name pattern after ':'");
  if (named && !IsPerName(rule->family)) {
    return Bad(rule->text,
               absl::StrCat(FamilyName(rule->family), " is one figure per step and takes no name"));
  }
  if (!named && IsPerName(rule->family) && rule->family != MetricFamily::kBusBw) {
    return Bad(rule->text, absl::StrCat(FamilyName(rule->family), " needs a name pattern, e.g. ",
                                        FamilyName(rule->family), ":*gemm*"));
  }
  return absl::OkStatus();
}

absl::Status ParseThreshold(const RuleParts& parts, Rule* rule) {
  double value = 0;
  if (!absl::SimpleAtod(parts.number, &value))
    return Bad(rule->text, "the threshold is not a number");
  rule->direction = parts.op == '>' ? Direction::kIncrease : Direction::kDecrease;
  rule->unit = ThresholdUnit::kAbsolute;
  double scale = 1;
  bool known = parts.unit.empty();
  for (const UnitSpelling& spelling : kUnits) {
    if (parts.unit != spelling.text) continue;
    rule->unit = spelling.unit;
    scale = spelling.scale;
    known = true;
  }
  if (!known)
    return Bad(rule->text, absl::StrCat("unknown unit '", parts.unit, "' (%, pt, ns, us, ms, s)"));
  rule->threshold = value * scale;
  if (rule->direction == Direction::kIncrease && rule->threshold < 0) {
    return Bad(rule->text, "a '>' rule needs a threshold >= 0 (e.g. step_time>+3%)");
  }
  if (rule->direction == Direction::kDecrease && rule->threshold > 0) {
    return Bad(rule->text, "a '<' rule needs a threshold <= 0 (e.g. busbw<-5%)");
  }
  return CheckUnit(*rule, parts.unit);
}

// True when `text` starts like a rule: a word followed by the end, ':' (not "::"), or a
// comparison and a number. A comma inside a kernel's template arguments is followed by
// neither ("float, 256>", "float, cute::T>"), so it does not split the rule.
bool StartsRule(absl::string_view text) {
  text = absl::StripLeadingAsciiWhitespace(text);
  size_t end = 0;
  while (end < text.size() &&
         (std::isalpha(static_cast<unsigned char>(text[end])) || text[end] == '_'))
    ++end;
  if (end == 0) return false;
  if (end == text.size() || text[end] == ',') return true;
  if (text[end] == ':') return end + 1 >= text.size() || text[end + 1] != ':';
  if (text[end] != '<' && text[end] != '>') return false;
  MetricFamily family;
  if (ParseFamily(text.substr(0, end), &family)) return true;
  size_t next = end + 1;
  if (next < text.size() && (text[next] == '+' || text[next] == '-')) ++next;
  return next < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[next])) || text[next] == '.');
}

}  // namespace

absl::StatusOr<Rule> ParseRule(absl::string_view text) {
  Rule rule;
  rule.text = std::string(absl::StripAsciiWhitespace(text));
  RuleParts parts;
  if (!SplitRule(rule.text, &parts)) {
    return Bad(rule.text, "expected METRIC>THRESHOLD or METRIC<THRESHOLD, e.g. step_time>+3%");
  }
  if (absl::Status status = ParseMetric(parts.metric, &rule); !status.ok()) return status;
  if (absl::Status status = ParseThreshold(parts, &rule); !status.ok()) return status;
  return rule;
}

absl::StatusOr<std::vector<Rule>> ParseRules(absl::string_view list) {
  std::vector<Rule> rules;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    if (i < list.size() && !(list[i] == ',' && StartsRule(list.substr(i + 1)))) continue;
    const absl::string_view piece = absl::StripAsciiWhitespace(list.substr(start, i - start));
    start = i + 1;
    if (piece.empty()) continue;
    absl::StatusOr<Rule> rule = ParseRule(piece);
    if (!rule.ok()) return rule.status();
    rules.push_back(*std::move(rule));
  }
  if (rules.empty()) return absl::InvalidArgumentError("--fail-on holds no rule");
  return rules;
}

bool GlobMatch(absl::string_view pattern, absl::string_view text) {
  size_t p = 0, t = 0, star = absl::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != absl::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string ThresholdText(const Rule& rule) {
  const char* sign = rule.threshold < 0 ? "-" : "+";
  const double magnitude = rule.threshold < 0 ? -rule.threshold : rule.threshold;
  switch (rule.unit) {
    case ThresholdUnit::kRelative: return absl::StrFormat("%s%g%%", sign, magnitude * 100);
    case ThresholdUnit::kPoints: return absl::StrFormat("%s%gpt", sign, magnitude);
    case ThresholdUnit::kAbsolute: break;
  }
  const bool time = UnitOf(rule.family) == MetricUnit::kNanoseconds;
  return absl::StrFormat("%s%g%s", sign, magnitude, time ? "ns" : "");
}

}  // namespace prof::analyzer::compare
