// The --fail-on rules: a comma-separated list such as
//   step_time>+3%, gpu_time>+5%, kernel:*gemm*>+5%, api:cudaMemcpy*>+10%, busbw<-5%,
//   gpu_util<-2pt, api_calls:cudaStreamSynchronize>+0, op:matmul>+50us
// Grammar (README "Rules"):
//   RULE   := METRIC ('>' | '<') [+|-] NUMBER [UNIT]
//   METRIC := step_time | gpu_time | gpu_util | busbw[:GLOB] | kernel:GLOB | kernel_calls:GLOB
//           | api:GLOB | api_calls:GLOB | op:GLOB
//   UNIT   := % (relative to the base median) | pt (percentage points, gpu_util)
//           | ns | us | ms | s (time metrics) | none (counts per step, busbw in GB/s)
// '>' rules fire on increases beyond the threshold (>= 0), '<' rules on decreases below
// it (<= 0). GLOB: '*' any run of characters, '?' one character, case-sensitive. Commas
// inside names (template arguments) are fine: a new rule starts only where a comma is
// followed by a word and then ':', the end, or a comparison with a number.
#ifndef PROF_ANALYZER_COMPARE_RULE_PARSER_H_
#define PROF_ANALYZER_COMPARE_RULE_PARSER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analyzer/compare/metric.h"

namespace prof::analyzer::compare {

enum class Direction { kIncrease, kDecrease };  // '>' and '<'
enum class ThresholdUnit { kRelative, kPoints, kAbsolute };

struct Rule {
  std::string text;  // as written, trimmed
  MetricFamily family = MetricFamily::kStepTime;
  std::string pattern;  // glob over metric names; empty: the whole-step metric
  Direction direction = Direction::kIncrease;
  ThresholdUnit unit = ThresholdUnit::kRelative;
  double threshold = 0;  // fraction (0.03 for 3%), points, ns, or count / GB/s
};

// Errors name the offending rule and say what is wrong with it.
absl::StatusOr<Rule> ParseRule(absl::string_view text);
absl::StatusOr<std::vector<Rule>> ParseRules(absl::string_view list);

bool GlobMatch(absl::string_view pattern, absl::string_view text);

// The threshold as written back: "+3%", "-2pt", "+50000ns", "+0".
std::string ThresholdText(const Rule& rule);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_RULE_PARSER_H_
