// Everything one `profanalyze compare` found, as data for the renderers (text, JSON,
// JUnit XML, markdown): what each side held, the aligned metrics by impact, each rule's
// verdict, and the warnings (too few steps, different rank counts, rules that matched
// nothing, data-quality issues).
#ifndef PROF_ANALYZER_COMPARE_COMPARE_REPORT_H_
#define PROF_ANALYZER_COMPARE_COMPARE_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/compare/profile_diff.h"
#include "analyzer/compare/rule_evaluation.h"
#include "analyzer/compare/run_profile.h"

namespace prof::analyzer::compare {

struct RunInfo {
  std::vector<std::string> paths;
  int processes = 0;
  size_t steps = 0;
  uint64_t events = 0;
};

struct CompareReport {
  RunInfo base;
  RunInfo candidate;
  double confidence = 0.99;
  size_t minimum_steps = 0;  // per side, to reach `confidence`
  std::vector<MetricDiff> metrics;
  std::vector<RuleResult> rules;
  std::vector<std::string> warnings;

  bool Failed() const;  // some rule failed: exit status 1
};

struct CompareSettings {
  double confidence = 0.99;
  std::vector<Rule> rules;
};

CompareReport BuildCompareReport(const RunProfile& base, std::vector<std::string> base_paths,
                                 const RunProfile& candidate,
                                 std::vector<std::string> candidate_paths,
                                 const CompareSettings& settings);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_COMPARE_REPORT_H_
