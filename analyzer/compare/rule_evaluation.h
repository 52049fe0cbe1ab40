// Applies the --fail-on rules to the aligned metrics. A rule's pattern may match many
// metrics (kernel:*gemm*); each is judged on its own and the rule fails when any of them
// does. A metric breaks a rule only when (1) its median change per step is beyond the
// threshold and (2) the whole confidence interval of the shift is beyond the threshold
// too, i.e. the change exceeds the threshold by more than the runs' own step-to-step
// noise can explain (which implies it is not zero either). With too few steps to
// reach the requested confidence a change beyond the threshold is "undecided": reported
// and warned about, but it does not fail the build.
#ifndef PROF_ANALYZER_COMPARE_RULE_EVALUATION_H_
#define PROF_ANALYZER_COMPARE_RULE_EVALUATION_H_

#include <string>
#include <vector>

#include "analyzer/compare/profile_diff.h"
#include "analyzer/compare/rule_parser.h"

namespace prof::analyzer::compare {

enum class Verdict { kPass, kFail, kUndecided, kNoMatch };
const char* VerdictName(Verdict verdict);  // "pass", "fail", "undecided", "no match"

struct ItemResult {
  MetricDiff diff;
  double change = 0;  // in the rule's unit: fraction, points, or absolute
  bool beyond_threshold = false;
  bool beyond_noise = false;  // the whole confidence interval is beyond the threshold
  Verdict verdict = Verdict::kPass;
  std::string reason;  // "regression", "within threshold", "within noise", "too few steps"
};

struct RuleResult {
  Rule rule;
  Verdict verdict = Verdict::kPass;
  std::vector<ItemResult> items;  // failing and undecided first, then by change
};

std::vector<RuleResult> EvaluateRules(const std::vector<Rule>& rules,
                                      const std::vector<MetricDiff>& diffs);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_RULE_EVALUATION_H_
