// Golden test: `train_ranks` on 2 or 4 ranks started the way torchrun starts them (RANK,
// WORLD_SIZE, LOCAL_RANK in the environment, rank 0 handing the NCCL id over through a
// rendezvous file), each under libprof.so; profanalyze's tables for each rank are
// compared with that rank's ground truth. Each pair of ranks also runs every other
// collective on a communicator made with ncclCommSplit: its calls, bytes, bus bandwidth
// and rank count must be right, and its identity (comm_hash) must be the same on the
// pair's ranks and differ from other groups', so calls can be matched across ranks.
//
// Every step is recorded, so each rank has N+1 steps: the agent's step 0 starts at
// process start (holding the setup the truth puts in `outside_steps`) and a final partial
// step runs from the last prof_step to exit (holding the checked all-reduce the truth
// also puts in `outside_steps`). Kernel, copy and NCCL figures cover the whole process
// and are compared with `totals`.
#include <map>
#include <set>
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

constexpr int kSteps = 3;
constexpr int kGroupSize = 2;  // train_ranks' split communicators: ranks r / 2

std::vector<WorkloadProcess> TorchrunStyleRanks(int world, const std::string& truth_pattern,
                                                const std::string& rendezvous,
                                                const std::map<std::string, std::string>& extra) {
  std::vector<WorkloadProcess> ranks;
  for (int rank = 0; rank < world; ++rank) {
    ranks.push_back(
        {Runfile("testdata/workloads/train_ranks"),
         {"--steps", std::to_string(kSteps), "--batch-size", "16", "--truth", truth_pattern,
          "--rendezvous", rendezvous, "--group-size", std::to_string(kGroupSize)},
         {{"RANK", std::to_string(rank)},
          {"WORLD_SIZE", std::to_string(world)},
          {"LOCAL_RANK", std::to_string(rank)}}});
    ranks.back().environment.insert(extra.begin(), extra.end());
  }
  return ranks;
}

// Cross-rank identity: the world communicator's all-reduces carry one hash on every
// rank; each group's collectives one hash shared by exactly the group's ranks.
void CheckCommunicatorIdentity(const std::vector<ProcessFigures>& ranks) {
  std::set<uint64_t> world;
  std::map<int, std::set<uint64_t>> by_group;
  for (size_t rank = 0; rank < ranks.size(); ++rank) {
    INFO("rank " << rank);
    for (const auto& [op, hashes] : ranks[rank].comm_hashes) {
      INFO(op);
      CHECK(hashes.size() == 1);
      if (op == "ALLREDUCE") {
        world.insert(hashes.begin(), hashes.end());
      } else {
        by_group[static_cast<int>(rank) / kGroupSize].insert(hashes.begin(), hashes.end());
      }
    }
  }
  CHECK(world.size() == 1);
  std::set<uint64_t> all = world;
  for (const auto& [group, hashes] : by_group) {
    INFO("group " << group);
    CHECK(hashes.size() == 1);
    all.insert(hashes.begin(), hashes.end());
  }
  CHECK(by_group.size() == ranks.size() / kGroupSize);
  CHECK(all.size() == 1 + by_group.size());
}

// Records the ranks and checks each rank's tables against its truth.
void CheckRanks(const std::string& name, int world, const std::map<std::string, std::string>& extra,
                size_t files_per_rank) {
  const std::string output = FreshFolder(name);
  const std::string truth_pattern = output + "/../" + name + "_truth.{rank}.json";
  const absl::Status run = RunUnderAgent(
      TorchrunStyleRanks(world, truth_pattern, output + "/../" + name + ".id", extra), output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output);
  INFO(analyzed.status().ToString());
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->size() == static_cast<size_t>(world));

  std::vector<ProcessReport> reports;
  for (int rank = 0; rank < world; ++rank) {
    const ProcessFigures& figures = (*analyzed)[rank];
    absl::StatusOr<WorkloadTruth> truth =
        ReadWorkloadTruth(absl::StrCat(output, "/../", name, "_truth.", rank, ".json"));
    INFO("rank " << rank << ": " << truth.status().ToString());
    REQUIRE(truth.ok());
    REQUIRE(figures.rank == rank);
    CHECK(figures.report.files.size() == files_per_rank);
    REQUIRE(truth->steps.size() == static_cast<size_t>(kSteps));
    // kSteps + 1 steps; step 0 (process start to the first boundary) is set-up, apart
    // from the per-step tables, so they hold truth steps 1..kSteps-1 and the teardown.
    CHECK(figures.step_count == kSteps);
    CHECK(figures.model_rows.at("ProfileStep").calls == kSteps);
    CheckKernels(figures, truth->totals);  // NCCL kernels included
    CheckCopies(figures, truth->totals);
    CheckCollectives(figures, truth->totals);
    CheckBusBandwidth(figures, truth->totals);
    CheckPhaseCalls(figures, truth->StepRange(1, kSteps));
    // The truth does not split outside_steps into setup and teardown (which launches
    // kernels here): the steps hold at least truth steps 1..kSteps-1, the set-up at least
    // truth step 0, and together every kernel.
    const double step_gpu_ns = figures.model_rows.at("ProfileStep").gpu_total_ns;
    CHECK(step_gpu_ns >= truth->StepRange(1, kSteps).kernel_total_ns);
    CHECK(figures.setup_kernel_ns >= truth->StepRange(0, 1).kernel_total_ns);
    CHECK(step_gpu_ns + figures.setup_kernel_ns == truth->totals.kernel_total_ns);
    bool has_distribution = false;
    for (const SummaryTable& table : figures.report.tables)
      has_distribution |= table.key == "distributed";
    CHECK(has_distribution);
    reports.push_back(figures.report);
  }
  const SummaryTable ranks = RankSummary(reports);
  size_t rank_rows = 0;
  for (const Row& row : ranks.rows) rank_rows += row.kind == Row::Kind::kData;
  CHECK(rank_rows == static_cast<size_t>(world));
  CheckCommunicatorIdentity(*analyzed);
}

TEST_CASE("train_ranks, 2 ranks: each rank's tables add up to its truth") {
  CheckRanks("train_ranks", 2, {}, 1);
}

TEST_CASE("train_ranks, 4 ranks in 2 split groups: group collectives by their own communicator") {
  CheckRanks("train_ranks_4", 4, {}, 1);
}

TEST_CASE("train_ranks, 2 ranks, a file per step (PROF_STEPS_PER_FILE=1): the same totals") {
  CheckRanks("train_ranks_split", 2, {{"PROF_STEPS_PER_FILE", "1"}}, kSteps + 1);
}

}  // namespace
}  // namespace prof::analyzer::e2e
