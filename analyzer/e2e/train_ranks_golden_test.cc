// Golden test: `train_ranks` on 2 ranks started the way torchrun starts them (RANK,
// WORLD_SIZE, LOCAL_RANK in the environment, rank 0 handing the NCCL id over through a
// rendezvous file), each under libprof.so; profanalyze's tables for each rank are
// compared with that rank's ground truth.
//
// Every step is recorded, so each rank has N+1 steps: the agent's step 0 starts at
// process start (holding the setup the truth puts in `outside_steps`) and a final partial
// step runs from the last prof_step to exit (holding the checked all-reduce the truth
// also puts in `outside_steps`). Kernel, copy and NCCL figures cover the whole process
// and are compared with `totals`.
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/golden_checks.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/e2e/workload_truth.h"

namespace prof::analyzer::e2e {
namespace {

constexpr int kRanks = 2;
constexpr int kSteps = 3;

std::vector<WorkloadProcess> TorchrunStyleRanks(const std::string& truth_pattern, const std::string& rendezvous,
                                                const std::map<std::string, std::string>& extra) {
  std::vector<WorkloadProcess> ranks;
  for (int rank = 0; rank < kRanks; ++rank) {
    ranks.push_back({Runfile("testdata/workloads/train_ranks"),
                     {"--steps", std::to_string(kSteps), "--batch-size", "16", "--truth", truth_pattern,
                      "--rendezvous", rendezvous},
                     {{"RANK", std::to_string(rank)},
                      {"WORLD_SIZE", std::to_string(kRanks)},
                      {"LOCAL_RANK", std::to_string(rank)}}});
    ranks.back().environment.insert(extra.begin(), extra.end());
  }
  return ranks;
}

// Records the 2 ranks and checks each rank's tables against its truth.
void CheckRanks(const std::string& name, const std::map<std::string, std::string>& extra, size_t files_per_rank) {
  const std::string output = FreshFolder(name);
  const std::string truth_pattern = output + "/../" + name + "_truth.{rank}.json";
  const absl::Status run =
      RunUnderAgent(TorchrunStyleRanks(truth_pattern, output + "/../" + name + ".id", extra), output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output);
  INFO(analyzed.status().ToString());
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->size() == kRanks);

  std::vector<ProcessReport> reports;
  for (int rank = 0; rank < kRanks; ++rank) {
    const ProcessFigures& figures = (*analyzed)[rank];
    absl::StatusOr<WorkloadTruth> truth =
        ReadWorkloadTruth(absl::StrCat(output, "/../", name, "_truth.", rank, ".json"));
    INFO("rank " << rank << ": " << truth.status().ToString());
    REQUIRE(truth.ok());
    REQUIRE(figures.rank == rank);
    CHECK(figures.report.files.size() == files_per_rank);
    REQUIRE(truth->steps.size() == static_cast<size_t>(kSteps));
    CHECK(figures.step_count == kSteps + 1);
    CHECK(figures.model_rows.at("ProfileStep").calls == kSteps + 1);
    CheckKernels(figures, truth->totals);  // NCCL kernels included
    CheckCopies(figures, truth->totals);
    CheckCollectives(figures, truth->totals);
    CheckPhaseCalls(figures, truth->totals);
    CHECK(figures.model_rows.at("ProfileStep").gpu_total_ns == truth->totals.kernel_total_ns);
    bool has_distribution = false;
    for (const SummaryTable& table : figures.report.tables) has_distribution |= table.key == "distributed";
    CHECK(has_distribution);
    reports.push_back(figures.report);
  }
  const SummaryTable ranks = RankSummary(reports);
  size_t rank_rows = 0;
  for (const Row& row : ranks.rows) rank_rows += row.kind == Row::Kind::kData;
  CHECK(rank_rows == kRanks);
}

TEST_CASE("train_ranks, 2 ranks: each rank's tables add up to its truth") {
  CheckRanks("train_ranks", {}, 1);
}

TEST_CASE("train_ranks, 2 ranks, a file per step (PROF_STEPS_PER_FILE=1): the same totals") {
  CheckRanks("train_ranks_split", {{"PROF_STEPS_PER_FILE", "1"}}, kSteps + 1);
}

}  // namespace
}  // namespace prof::analyzer::e2e
