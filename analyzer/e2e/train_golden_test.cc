// Golden test: `train` runs on the simulated CUDA platform under libprof.so, profanalyze's
// tables for the recorded trace are compared with the workload's ground truth.
//
// How the agent's steps line up with the truth's (testdata/workloads/README.md):
// the agent's step k runs from prof_step #k-1 to prof_step #k, its step 0 from process
// start, and it closes a final partial step at exit. The truth's step k runs from the top
// of iteration k to prof_step #k and puts setup and teardown in `outside_steps`. So:
//   * without a schedule the agent has N+1 steps: its step 0 = outside_steps' setup +
//     truth step 0, its step N = the teardown; together they cover `totals` exactly. The
//     analyzer shows step 0 apart as set-up (setup_summary.h): the per-step tables hold
//     agent steps 1..N, i.e. truth steps 1..N-1 and the teardown (which launches nothing);
//   * with PROF_SCHEDULE=START:END, the recorded steps are exactly truth steps
//     START..END-1 (nothing runs between prof_step #k-1 and the top of iteration k).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/golden_checks.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/e2e/workload_truth.h"

namespace prof::analyzer::e2e {
namespace {

struct RecordedTrain {
  WorkloadTruth truth;
  ProcessFigures analyzed;
};

RecordedTrain RecordTrain(const std::string& name, int steps,
                          std::map<std::string, std::string> environment,
                          bool include_setup = false) {
  const std::string output = FreshFolder(name);
  const std::string truth_path = output + "/../" + name + "_truth.json";
  const absl::Status run = RunUnderAgent(
      {{Runfile("testdata/workloads/train"),
        {"--steps", std::to_string(steps), "--batch-size", "16", "--truth", truth_path},
        std::move(environment)}},
      output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<WorkloadTruth> truth = ReadWorkloadTruth(truth_path);
  INFO(truth.status().ToString());
  REQUIRE(truth.ok());
  REQUIRE(truth->steps.size() == static_cast<size_t>(steps));
  SummaryOptions options;
  options.include_setup = include_setup;
  absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output, options);
  INFO(analyzed.status().ToString());
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->size() == 1);
  return {std::move(*truth), std::move(analyzed->front())};
}

TEST_CASE("train, every step recorded: the tables add up to the truth's totals") {
  constexpr int kSteps = 4;
  const RecordedTrain run = RecordTrain("train_all", kSteps, {});
  const TruthSection& totals = run.truth.totals;
  // N prof_step calls make N steps plus the partial step closed at exit (see the top);
  // step 0 is set-up, apart from the per-step tables.
  CHECK(run.analyzed.step_count == kSteps);
  CheckKernels(run.analyzed, totals);  // the event tables keep the set-up's events
  CheckCopies(run.analyzed, totals);
  CheckCopyRows(run.analyzed, totals);
  CheckPhaseCalls(run.analyzed, run.truth.StepRange(1, kSteps));  // set-up's phases apart

  const uint64_t after_setup_ns = run.truth.StepRange(1, kSteps).kernel_total_ns;
  const PhaseRow& step_row = run.analyzed.model_rows.at("ProfileStep");
  CHECK(step_row.calls == kSteps);
  // G: the kernels launched in agent steps 1..N, i.e. truth steps 1..N-1.
  CHECK(step_row.gpu_total_ns == after_setup_ns);
  CHECK(WithinOneBasisPoint(step_row.gpu_ratio, 1.0));
  // Phases of steps 1..N-1 hold every kernel of those steps.
  double phase_gpu_ns = 0;
  for (const char* phase : {"Dataloader", "Forward", "Backward", "Optimization"}) {
    if (run.analyzed.model_rows.count(phase))
      phase_gpu_ns += run.analyzed.model_rows.at(phase).gpu_total_ns;
  }
  CHECK(phase_gpu_ns == static_cast<double>(after_setup_ns));
  // The set-up holds the rest: outside_steps' setup and truth step 0.
  CHECK(run.analyzed.setup_kernel_ns == totals.kernel_total_ns - after_setup_ns);
}

TEST_CASE("train, every step recorded, --include-setup: step 0 counts as a step again") {
  constexpr int kSteps = 3;
  const RecordedTrain run = RecordTrain("train_with_setup", kSteps, {}, /*include_setup=*/true);
  const TruthSection& totals = run.truth.totals;
  CHECK(run.analyzed.step_count == kSteps + 1);
  CheckPhaseCalls(run.analyzed, totals);
  const PhaseRow& step_row = run.analyzed.model_rows.at("ProfileStep");
  CHECK(step_row.calls == kSteps + 1);
  // G: every kernel was launched inside one of the agent's steps, setup included.
  CHECK(step_row.gpu_total_ns == totals.kernel_total_ns);
  double phase_gpu_ns = 0;
  for (const char* phase : {"Dataloader", "Forward", "Backward", "Optimization"}) {
    if (run.analyzed.model_rows.count(phase))
      phase_gpu_ns += run.analyzed.model_rows.at(phase).gpu_total_ns;
  }
  // Phases hold every kernel but the setup's: their GPU share is the truth's in-step share.
  CHECK(phase_gpu_ns == static_cast<double>(run.truth.StepRange(0, kSteps).kernel_total_ns));
}

TEST_CASE(
    "train in files of 2 steps (PROF_STEPS_PER_FILE=2): the tables still add up to the totals") {
  constexpr int kSteps = 7;
  const RecordedTrain run = RecordTrain("train_split", kSteps, {{"PROF_STEPS_PER_FILE", "2"}});
  const TruthSection& totals = run.truth.totals;
  CHECK(run.analyzed.report.files.size() == 4);  // 8 steps: 7 and the one closed at exit
  CHECK(run.analyzed.step_count == kSteps);      // step 0 is set-up
  CheckKernels(run.analyzed, totals);
  CheckCopies(run.analyzed, totals);
  CheckPhaseCalls(run.analyzed, run.truth.StepRange(1, kSteps));
  const PhaseRow& step_row = run.analyzed.model_rows.at("ProfileStep");
  CHECK(step_row.gpu_total_ns == run.truth.StepRange(1, kSteps).kernel_total_ns);
}

TEST_CASE("train with PROF_SCHEDULE=2:6: the tables equal the truth's steps 2 to 5") {
  constexpr int kFirst = 2, kEnd = 6;
  const RecordedTrain run = RecordTrain("train_schedule", 8, {{"PROF_SCHEDULE", "2:6"}});
  const TruthSection recorded = run.truth.StepRange(kFirst, kEnd);
  CHECK(run.analyzed.step_count == kEnd - kFirst);
  CheckKernels(run.analyzed, recorded);
  CheckCopies(run.analyzed, recorded);
  CheckCopyRows(run.analyzed, recorded);
  CheckPhaseCalls(run.analyzed, recorded);

  std::vector<uint64_t> kernel_ns_per_step;
  for (int step = kFirst; step < kEnd; ++step) {
    kernel_ns_per_step.push_back(run.truth.steps[step].section.kernel_total_ns);
  }
  const PhaseRow& step_row = run.analyzed.model_rows.at("ProfileStep");
  CHECK(step_row.calls == kEnd - kFirst);
  CHECK(step_row.gpu_total_ns == recorded.kernel_total_ns);
  CHECK(step_row.gpu_max_ns ==
        *std::max_element(kernel_ns_per_step.begin(), kernel_ns_per_step.end()));
  CHECK(step_row.gpu_min_ns ==
        *std::min_element(kernel_ns_per_step.begin(), kernel_ns_per_step.end()));
}

TEST_CASE("train: every copy and memset call is a Memory Manipulation row by call and direction") {
  constexpr int kSteps = 3;
  const RecordedTrain run = RecordTrain("train_copies", kSteps, {});
  const TruthSection& totals = run.truth.totals;
  CheckCopyRows(run.analyzed, totals);
  // training_model.cc: the batch goes up with cudaMemcpyAsync (HtoD), the loss comes back
  // with cudaMemcpy (DtoH), gradients are cleared with cudaMemsetAsync.
  std::set<std::string> names;
  for (const auto& entry : run.analyzed.copy_rows) names.insert(entry.first);
  CHECK(names ==
        std::set<std::string>{"cudaMemcpy DtoH", "cudaMemcpyAsync HtoD", "cudaMemsetAsync"});
  CHECK(run.analyzed.copy_rows.at("cudaMemcpyAsync HtoD").calls ==
        totals.memcpy_by_kind.at("HtoD").count);
  CHECK(run.analyzed.copy_rows.at("cudaMemcpy DtoH").bytes ==
        totals.memcpy_by_kind.at("DtoH").bytes);
  CHECK(run.analyzed.copy_rows.at("cudaMemsetAsync").calls == totals.memset.count);
  CHECK(totals.memset.count > 0);
}

}  // namespace
}  // namespace prof::analyzer::e2e
