#include "analyzer/compare/run_profile.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/compare/step_metrics.h"
#include "analyzer/pipeline/run_processes.h"
#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/data_quality_summary.h"
#include "analyzer/tree/range_tree.h"

namespace prof::analyzer::compare {
namespace {

struct ProcessResult {
  ProcessStepMetrics metrics;
  std::string quality_note;  // empty when the data is perfect
  uint64_t events = 0;
};

// Whole-run ratios have no value where absent; times and counts are zero there.
double AbsentValue(MetricFamily family) {
  return family == MetricFamily::kBusBw || family == MetricFamily::kGpuUtil ? MissingValue() : 0.0;
}

ProcessResult AnalyseProcess(TraceModel model, const NameOptions& names,
                             WindowCarry* carry = nullptr) {
  const RangeTree tree = BuildRangeTree(&model);
  const AnalysisContext context = MakeAnalysisContext(model, tree, SummaryOptions{});
  ProcessResult result;
  result.events = model.event_count;
  result.metrics = ExtractStepMetrics(context, names, carry);
  if (DataQualitySummary(model.quality)) {
    result.quality_note =
        absl::StrCat("rank ", model.identity.rank, " (pid ", model.identity.pid,
                     "): the trace has data-quality issues; see `profanalyze info`");
  }
  return result;
}

// Appends a later window's steps; a metric one side lacks is absent on its steps.
void AppendWindow(ProcessStepMetrics window, ProcessStepMetrics* into) {
  const size_t before = into->step_numbers.size();
  const size_t after = before + window.step_numbers.size();
  into->step_numbers.insert(into->step_numbers.end(), window.step_numbers.begin(),
                            window.step_numbers.end());
  for (auto& [key, series] : window.series) {
    std::vector<double>& target = into->series[key];
    target.resize(before, AbsentValue(key.family));
    target.insert(target.end(), series.begin(), series.end());
  }
  for (auto& [key, series] : into->series) series.resize(after, AbsentValue(key.family));
}

// Compare as a pipeline consumer: a process's windows one at a time, each window's steps
// appended to its result, the work in flight at a boundary carried into the next window.
class ProfileConsumer : public ProcessConsumer {
 public:
  ProfileConsumer(const NameOptions& names, ProcessResult* result, bool* any_read)
      : names_(names), result_(result), any_read_(any_read) {}
  void AddWindow(TraceModel model) override {
    ProcessResult window = AnalyseProcess(std::move(model), names_, &carry_);
    carry_.NextWindow();
    AppendWindow(std::move(window.metrics), &result_->metrics);
    result_->events += window.events;
    if (result_->quality_note.empty()) result_->quality_note = window.quality_note;
  }
  void Finish(const ProcessOutcome& outcome) override { *any_read_ = outcome.files_read > 0; }

 private:
  const NameOptions& names_;
  ProcessResult* result_;
  bool* any_read_;
  WindowCarry carry_;
};

// Mean over the processes that have the step; missing values are left out.
void AverageAcrossProcesses(const std::vector<ProcessResult>& results, RunProfile* profile) {
  std::set<int64_t> step_set;
  std::set<MetricKey> keys;
  for (const ProcessResult& result : results) {
    step_set.insert(result.metrics.step_numbers.begin(), result.metrics.step_numbers.end());
    for (const auto& entry : result.metrics.series) keys.insert(entry.first);
  }
  profile->step_numbers.assign(step_set.begin(), step_set.end());
  const size_t steps = profile->step_numbers.size();
  for (const MetricKey& key : keys) {
    std::vector<double> sum(steps, 0.0);
    std::vector<int> count(steps, 0);
    for (const ProcessResult& result : results) {
      auto series = result.metrics.series.find(key);
      for (size_t i = 0; i < result.metrics.step_numbers.size(); ++i) {
        const double value =
            series != result.metrics.series.end() ? series->second[i] : AbsentValue(key.family);
        if (IsMissing(value)) continue;
        const size_t at =
            std::lower_bound(profile->step_numbers.begin(), profile->step_numbers.end(),
                             result.metrics.step_numbers[i]) -
            profile->step_numbers.begin();
        sum[at] += value;
        ++count[at];
      }
    }
    std::vector<double>& values = profile->values[key];
    for (size_t i = 0; i < steps; ++i)
      values.push_back(count[i] ? sum[i] / count[i] : MissingValue());
  }
}

void DropWarmUp(int skip_first, RunProfile* profile) {
  const size_t skip = std::min<size_t>(std::max(skip_first, 0), profile->step_numbers.size());
  if (skip == 0) return;
  profile->step_numbers.erase(profile->step_numbers.begin(), profile->step_numbers.begin() + skip);
  for (auto& entry : profile->values)
    entry.second.erase(entry.second.begin(), entry.second.begin() + skip);
}

// Notes, the average over processes, and the warm-up cut.
RunProfile Combine(std::vector<ProcessResult> results, const ProfileOptions& options,
                   RunProfile profile) {
  for (const ProcessResult& result : results) {
    profile.event_count += result.events;
    if (!result.quality_note.empty()) profile.notes.push_back(result.quality_note);
    if (result.metrics.step_numbers.empty())
      profile.notes.push_back("a process has no steps (nothing to compare)");
  }
  AverageAcrossProcesses(results, &profile);
  DropWarmUp(options.skip_first, &profile);
  return profile;
}

}  // namespace

RunProfile BuildRunProfile(std::vector<TraceModel> processes, const ProfileOptions& options) {
  RunProfile profile;
  profile.process_count = static_cast<int>(processes.size());
  std::vector<ProcessResult> results(processes.size());
  ParallelFor(processes.size(), options.threads, [&](size_t i) {
    results[i] = AnalyseProcess(std::move(processes[i]), options.names);
  });
  return Combine(std::move(results), options, std::move(profile));
}

RunProfile BuildRunProfileFromInputs(const Inputs& inputs, const ProfileOptions& options,
                                     std::vector<std::string>* unreadable) {
  std::vector<ProcessResult> results(inputs.processes.size());
  std::unique_ptr<bool[]> read(
      new bool[results.size()]());  // not vector<bool>: written from several threads
  RunOptions run;
  run.threads = options.threads;
  run.slices = options.slices;
  const RunSummary summary = RunProcesses(inputs, run, [&](size_t i) {
    return std::make_unique<ProfileConsumer>(options.names, &results[i], &read[i]);
  });
  unreadable->insert(unreadable->end(), summary.unreadable.begin(), summary.unreadable.end());
  std::vector<ProcessResult> kept;
  for (size_t i = 0; i < results.size(); ++i) {
    if (read[i]) kept.push_back(std::move(results[i]));
  }
  RunProfile profile;
  profile.process_count = static_cast<int>(kept.size());
  return Combine(std::move(kept), options, std::move(profile));
}

}  // namespace prof::analyzer::compare
