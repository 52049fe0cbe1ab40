#include "analyzer/compare/compare_report.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace prof::analyzer::compare {
namespace {

RunInfo Describe(const RunProfile& profile, std::vector<std::string> paths) {
  RunInfo info;
  info.paths = std::move(paths);
  info.processes = profile.process_count;
  info.steps = profile.step_numbers.size();
  info.events = profile.event_count;
  return info;
}

void AddRunWarnings(const RunProfile& profile, const char* side, size_t minimum,
                    CompareReport* report) {
  for (const std::string& note : profile.notes)
    report->warnings.push_back(absl::StrCat(side, ": ", note));
  const size_t steps = profile.step_numbers.size();
  if (steps < minimum) {
    report->warnings.push_back(absl::StrCat(
        side, " has ", steps, " step(s); ", minimum, " per side are needed to decide at ",
        report->confidence * 100, "% confidence, so no rule can fail (record more steps)"));
  }
}

void AddRuleWarnings(CompareReport* report) {
  for (const RuleResult& result : report->rules) {
    if (result.verdict == Verdict::kNoMatch) {
      report->warnings.push_back(
          absl::StrCat("rule '", result.rule.text, "' matched no metric in either run"));
    }
    if (result.verdict == Verdict::kUndecided) {
      report->warnings.push_back(
          absl::StrCat("rule '", result.rule.text,
                       "': a change beyond the threshold, but too few steps to decide"));
    }
  }
}

}  // namespace

bool CompareReport::Failed() const {
  for (const RuleResult& result : rules) {
    if (result.verdict == Verdict::kFail) return true;
  }
  return false;
}

CompareReport BuildCompareReport(const RunProfile& base, std::vector<std::string> base_paths,
                                 const RunProfile& candidate,
                                 std::vector<std::string> candidate_paths,
                                 const CompareSettings& settings) {
  CompareReport report;
  report.base = Describe(base, std::move(base_paths));
  report.candidate = Describe(candidate, std::move(candidate_paths));
  report.confidence = settings.confidence;
  report.minimum_steps = MinimumStepsPerSide(settings.confidence);
  report.metrics = DiffProfiles(base, candidate, settings.confidence);
  report.rules = EvaluateRules(settings.rules, report.metrics);
  AddRunWarnings(base, "base", report.minimum_steps, &report);
  AddRunWarnings(candidate, "new", report.minimum_steps, &report);
  if (base.process_count != candidate.process_count) {
    report.warnings.push_back(absl::StrCat("base has ", base.process_count,
                                           " process(es), new has ", candidate.process_count,
                                           "; per-step figures are averaged over ranks"));
  }
  AddRuleWarnings(&report);
  return report;
}

}  // namespace prof::analyzer::compare
