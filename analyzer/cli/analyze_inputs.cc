#include "analyzer/cli/analyze_inputs.h"

#include <memory>
#include <optional>
#include <utility>

#include "analyzer/pipeline/run_processes.h"

namespace prof::analyzer {
namespace {

// The summary as a pipeline consumer: one ProcessAnalysis per process, its report kept
// when at least one window was read.
class SummaryConsumer : public ProcessConsumer {
 public:
  SummaryConsumer(const SummaryOptions& options, const ViewSet& views,
                  std::optional<ProcessReport>* report)
      : analysis_(options, views), report_(report) {}
  void AddWindow(TraceModel window) override { analysis_.AddWindow(std::move(window)); }
  void Finish(const ProcessOutcome& outcome) override {
    if (outcome.files_read > 0) *report_ = std::move(analysis_).Finish();
  }

 private:
  ProcessAnalysis analysis_;
  std::optional<ProcessReport>* report_;
};

}  // namespace

absl::StatusOr<AnalyzedInputs> AnalyzeInputs(const std::vector<std::string>& paths,
                                             const SummaryOptions& options, const ViewSet& views,
                                             int threads, int window) {
  absl::StatusOr<Inputs> inputs = OpenInputs(paths);
  if (!inputs.ok()) return inputs.status();
  return AnalyzeProcesses(*inputs, options, views, threads, window);
}

AnalyzedInputs AnalyzeProcesses(const Inputs& inputs, const SummaryOptions& options,
                                const ViewSet& views, int threads, int window) {
  std::vector<std::optional<ProcessReport>> reports(inputs.processes.size());
  RunOptions run;
  run.threads = threads;
  run.window = window;
  run.progress = true;
  run.slices = SliceOptions();  // ProcessAnalysis merges windows: a huge one comes in slices
  RunSummary summary = RunProcesses(inputs, run, [&](size_t i) {
    return std::make_unique<SummaryConsumer>(options, views, &reports[i]);
  });
  AnalyzedInputs analyzed;
  analyzed.unreadable = std::move(summary.unreadable);
  analyzed.files_read = summary.files_read;
  for (std::optional<ProcessReport>& report : reports) {  // in the order of the processes
    if (report) analyzed.reports.push_back(std::move(*report));
  }
  return analyzed;
}

}  // namespace prof::analyzer
