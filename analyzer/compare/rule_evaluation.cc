#include "analyzer/compare/rule_evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prof::analyzer::compare {
namespace {

bool Matches(const Rule& rule, const MetricKey& key) {
  if (key.family != rule.family) return false;
  if (rule.pattern.empty()) return key.name.empty();
  return GlobMatch(rule.pattern, key.name);
}

// `shift` (an absolute change of the metric) in the rule's unit.
double InRuleUnit(const Rule& rule, const MetricDiff& diff, double shift) {
  if (rule.unit != ThresholdUnit::kRelative) return shift;
  if (diff.shift.base.median != 0) return shift / std::fabs(diff.shift.base.median);
  if (shift == 0) return 0;
  return shift > 0 ? std::numeric_limits<double>::infinity()
                   : -std::numeric_limits<double>::infinity();
}

ItemResult Judge(const Rule& rule, const MetricDiff& diff) {
  ItemResult item;
  item.diff = diff;
  item.change = rule.unit == ThresholdUnit::kRelative ? diff.relative : diff.shift.delta;
  const bool up = rule.direction == Direction::kIncrease;
  item.beyond_threshold = up ? item.change > rule.threshold : item.change < rule.threshold;
  // The near end of the interval must clear the threshold too: then the change exceeds
  // the threshold even after allowing for the step-to-step noise.
  const double near_end = InRuleUnit(rule, diff, up ? diff.shift.ci_low : diff.shift.ci_high);
  item.beyond_noise = up ? near_end > rule.threshold : near_end < rule.threshold;
  if (!item.beyond_threshold) {
    item.reason = "within threshold";
  } else if (!diff.shift.decided) {
    item.verdict = Verdict::kUndecided;
    item.reason = "too few steps";
  } else if (!item.beyond_noise) {
    item.reason = "within noise";
  } else {
    item.verdict = Verdict::kFail;
    item.reason = "regression";
  }
  return item;
}

int Severity(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFail: return 0;
    case Verdict::kUndecided: return 1;
    default: return 2;
  }
}

}  // namespace

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "pass";
    case Verdict::kFail: return "fail";
    case Verdict::kUndecided: return "undecided";
    case Verdict::kNoMatch: return "no match";
  }
  return "?";
}

std::vector<RuleResult> EvaluateRules(const std::vector<Rule>& rules,
                                      const std::vector<MetricDiff>& diffs) {
  std::vector<RuleResult> results;
  for (const Rule& rule : rules) {
    RuleResult result;
    result.rule = rule;
    for (const MetricDiff& diff : diffs) {
      if (Matches(rule, diff.key)) result.items.push_back(Judge(rule, diff));
    }
    const bool up = rule.direction == Direction::kIncrease;
    std::stable_sort(result.items.begin(), result.items.end(),
                     [&](const ItemResult& a, const ItemResult& b) {
                       if (Severity(a.verdict) != Severity(b.verdict))
                         return Severity(a.verdict) < Severity(b.verdict);
                       return up ? a.change > b.change : a.change < b.change;
                     });
    if (result.items.empty()) {
      result.verdict = Verdict::kNoMatch;
    } else {
      result.verdict = Severity(result.items.front().verdict) < 2 ? result.items.front().verdict
                                                                  : Verdict::kPass;
    }
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace prof::analyzer::compare
