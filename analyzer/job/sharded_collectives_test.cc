// The job view sharded by communicator (its steps by step number) gives the in-process job
// view's tables to the bit, for 1, 2, 3 and 8 processes (threads here; MPI in
// mpi/mpi_job_test.sh): on a tensor x data parallel job with 12 communicators, on the
// world-communicator job, and on hand-made ranks with unnumbered, duplicate, mismatched and
// missing calls and uneven steps. The expected tables are
// the in-process analysis's (AnalyzeJob), which job_view_test checks against the
// generator's truth.
#include "analyzer/job/sharded_collectives.h"

#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/job/job_tables.h"
#include "analyzer/job/quantile.h"
#include "analyzer/job/sharded_clock_fit.h"
#include "analyzer/job/table_proto.h"
#include "analyzer/job/thread_exchange.h"
#include "analyzer/testing/job_traces.h"
#include "analyzer/testing/scratch.h"
#include "proto/schema_enums.h"

namespace prof::analyzer {
namespace {

// Every job table, every row, as bytes: equal only if every figure is equal to the bit.
std::string TablesBytes(const JobAnalysis& job) {
  std::string bytes;
  for (const SummaryTable& table : JobTables(job, 0))
    bytes += TableToProto(table).SerializeAsString();
  return bytes;
}

// The figures process 0 gets when `processes` processes hold the ranks, rank i on
// process (7 i + 3) % processes (not the fitter's i % processes).
CollectiveFigures Sharded(const std::vector<ProcessReport>& reports, int processes) {
  CollectiveFigures figures;
  RunOnThreads(processes, [&](Exchange& exchange) {
    std::vector<ShardRank> mine;
    for (uint32_t i = 0; i < reports.size(); ++i) {
      if (static_cast<int>((7 * i + 3) % processes) == exchange.Rank())
        mine.push_back({i, reports[i].collectives.collectives, reports[i].collectives.steps});
    }
    CollectiveFigures got = AnalyzeCollectivesSharded(exchange, std::move(mine), reports.size());
    if (exchange.Rank() == 0) figures = std::move(got);
  });
  return figures;
}

// The reports without their collectives and steps: AnalyzeJobWith must not need them.
std::vector<ProcessReport> WithoutCollectives(std::vector<ProcessReport> reports) {
  for (ProcessReport& report : reports) report.collectives = {};
  return reports;
}

void CheckSameForEveryProcessCount(const std::vector<ProcessReport>& reports) {
  const std::string expected = TablesBytes(AnalyzeJob(reports));
  for (int processes : {1, 2, 3, 8}) {
    INFO("processes: " << processes);
    CollectiveFigures figures = Sharded(reports, processes);
    CHECK(figures.match.collectives.empty());  // process 0 holds no collective
    const JobAnalysis job = AnalyzeJobWith(WithoutCollectives(reports), 0, std::move(figures));
    CHECK(TablesBytes(job) == expected);
  }
}

std::vector<ProcessReport> JobReports(const testing::JobSpec& spec, const std::string& name) {
  const testing::JobTruth truth = testing::WriteJobTraces(spec, testing::ScratchFolder(name));
  absl::StatusOr<AnalyzedInputs> inputs =
      AnalyzeInputs({truth.folder}, SummaryOptions{}, AllViews(), 2);
  REQUIRE(inputs.ok());
  return JobReportsOf(JobPartialOf(inputs->reports, inputs->unreadable)).reports;
}

testing::JobSpec Injected(int ranks, int tensor_parallel) {
  testing::JobSpec spec;
  spec.ranks = ranks;
  spec.steps = 6;
  spec.tensor_parallel = tensor_parallel;
  spec.straggler_rank = ranks - 3;
  spec.straggler_extra_ns = 3000000;
  spec.straggler_first_step = 2;
  spec.straggler_last_step = 4;
  spec.late_rank = 5;
  spec.late_extra_ns = 400000;
  spec.missing_rank = 9;
  spec.missing_step = 3;
  return spec;
}

TEST_CASE("sharded job view: tensor x data parallel, 32 ranks, 12 communicators, P = 1, 2, 3, 8") {
  const std::vector<ProcessReport> reports = JobReports(Injected(32, 4), "tp4x8");
  REQUIRE(reports.size() == 32);
  const JobAnalysis job = AnalyzeJob(reports);
  // 8 tensor groups and 4 data groups, 6 steps each; the data group missing rank 9's
  // all-gather of step 3 leaves one incomplete; every clock reached through the groups.
  CHECK(job.match.matched == (8 + 4) * 6);
  CHECK(job.match.incomplete == 1);
  CHECK(job.stragglers.communicators.size() == 12);
  for (const RankClock& clock : job.clock.ranks) CHECK(clock.fitted);
  std::set<int> owners;
  for (int group = 0; group < 8; ++group)
    owners.insert(CommunicatorOwner(testing::TensorGroupHash(group), 3));
  CHECK(owners.size() == 3);  // the communicators spread over the processes
  CheckSameForEveryProcessCount(reports);
}

TEST_CASE("sharded job view: the world communicator, 16 ranks, P = 1, 2, 3, 8") {
  CheckSameForEveryProcessCount(JobReports(Injected(16, 1), "world16"));
}

CollectiveRecord Call(uint64_t comm, int64_t sequence, int32_t operation, uint64_t enter,
                      uint64_t bytes = 1024) {
  return {comm, sequence, operation, 0, bytes, enter, enter + 5000 + sequence * 10, -1, true};
}

TEST_CASE("sharded job view: unnumbered, duplicate, mismatched and missing calls, P = 1, 2, 3, 8") {
  const int32_t all_reduce = schema::NCCL_OPERATION_ALL_REDUCE;
  const int32_t broadcast = schema::NCCL_OPERATION_BROADCAST;
  std::vector<ProcessReport> reports(5);
  for (int rank = 0; rank < 5; ++rank) {
    ProcessReport& report = reports[rank];
    report.identity.rank = rank;
    report.identity.host = rank < 3 ? "a" : "b";
    std::vector<CollectiveRecord>& calls = report.collectives.collectives;
    for (int64_t sequence = 1; sequence <= 4; ++sequence) {
      if (rank == 4 && sequence == 2) continue;  // missing
      calls.push_back(Call(0xAA, sequence, all_reduce, 1000000 * sequence + 777 * rank));
    }
    calls.push_back(Call(0xBB, 1, rank == 2 ? broadcast : all_reduce, 9000000 + rank));
    if (rank == 1) calls.push_back(Call(0xBB, 1, all_reduce, 9100000));  // a duplicate
    calls.push_back(Call(0xCC, 0, all_reduce, 9500000));                 // unnumbered
    // Step 0 on every rank (rank 4 twice), step 1 on ranks 0-2, step 2 on rank 3 alone.
    const uint64_t end = 20000000 + 1000 * static_cast<uint64_t>(rank);
    report.collectives.steps = {{0, 0, end, 100000}};
    if (rank == 4) report.collectives.steps.push_back({0, end, 2 * end, 50000});
    if (rank < 3) report.collectives.steps.push_back({1, end, end + 7000000 * rank, 0});
    if (rank == 3) report.collectives.steps.push_back({2, end, 2 * end, 0});
  }
  reports[3].collectives.collectives.clear();  // a rank with no collectives at all
  const JobAnalysis job = AnalyzeJob(reports);
  CHECK(job.match.unnumbered == 4);
  CHECK(job.match.duplicates == 1);
  CHECK(job.match.mismatched == 1);
  CHECK(job.match.incomplete == 1);
  CheckSameForEveryProcessCount(reports);
}

TEST_CASE("sharded job view: sums of waits taken in the in-process order, P = 1, 2, 3, 8") {
  // Rank 0 waits 2^53 ns at communicator 0x44 and 1 ns at each of 0x11, 0x22, 0x33: summed
  // in (communicator, sequence) order that is 2^53 + 4 (3 + 2^53, rounded); big first it
  // would be 2^53 (each 1 lost). Ends agree on every rank: clocks align with offset 0.
  const uint64_t big = uint64_t{1} << 53;
  std::vector<ProcessReport> reports(3);
  for (int rank = 0; rank < 3; ++rank) {
    reports[rank].identity.rank = rank;
    for (uint64_t comm : {0x11, 0x22, 0x33, 0x44}) {
      const uint64_t last = comm == 0x44 ? big : 1000000 * comm;
      const uint64_t enter = rank == 2 ? last : rank == 1 ? last - 2 : comm == 0x44 ? 0 : last - 1;
      reports[rank].collectives.collectives.push_back(
          {comm, 1, schema::NCCL_OPERATION_ALL_REDUCE, 3, 64, enter, last + 5000, -1, true});
    }
  }
  const JobAnalysis job = AnalyzeJob(reports);
  REQUIRE(job.stragglers.waited_ns[0] == static_cast<double>(big + 4));
  CheckSameForEveryProcessCount(reports);
}

TEST_CASE("sharded job view: excess compute summed in step-number order, P = 1, 2, 3, 8") {
  // Rank 0 computes 2^53 ns over the median in step 5 and 1 ns over it in steps 1-3, listed
  // as 5, 1, 2, 3: in step order its excess is 2^53 + 4 (3 + 2^53, rounded); in its list's
  // order it would be 2^53.
  const uint64_t big = uint64_t{1} << 53;
  std::vector<ProcessReport> reports(3);
  for (int rank = 0; rank < 3; ++rank) {
    reports[rank].identity.rank = rank;
    for (int64_t number : {5, 1, 2, 3}) {
      const uint64_t over = rank != 0 ? 0 : number == 5 ? big : 1;
      reports[rank].collectives.steps.push_back({number, 0, 1000 + over, 0});
    }
  }
  const JobAnalysis job = AnalyzeJob(reports);
  REQUIRE(job.stragglers.stragglers.size() == 1);
  REQUIRE(job.stragglers.stragglers[0].excess_ns == static_cast<double>(big + 4));
  CheckSameForEveryProcessCount(reports);
}

TEST_CASE("sharded job view: the k-th smallest over processes is Quantile's, ties and zeros") {
  const std::vector<std::vector<double>> parts = {{0, 3.5, 3.5}, {}, {1e-300, 7, 3.5, 0}, {2}};
  std::vector<double> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  const std::vector<double> qs = {0.0, 0.5, 0.99, 1.0};
  std::vector<uint64_t> ks;
  for (double q : qs) ks.push_back(QuantileIndex(all.size(), q));
  std::vector<double> found;
  RunOnThreads(4, [&](Exchange& exchange) {
    std::vector<double> mine = KthSmallestSharded(exchange, parts[exchange.Rank()], ks);
    if (exchange.Rank() == 0) found = std::move(mine);
  });
  REQUIRE(found.size() == qs.size());
  for (size_t i = 0; i < qs.size(); ++i) CHECK(found[i] == Quantile(all, qs[i]));
}

TEST_CASE("sharded job view: ranks indexed in JobReportsOf's order across processes") {
  // 9 ranks dealt to 3 processes out of order, two without a rank number (pid breaks the tie).
  std::vector<prof::job::JobPartial> parts(3);
  const std::vector<std::pair<int, int64_t>> ranks = {{5, 1}, {-1, 9}, {0, 1}, {7, 1}, {-1, 3},
                                                      {2, 1}, {1, 1},  {6, 1}, {3, 1}};
  for (size_t i = 0; i < ranks.size(); ++i) {
    prof::job::RankPartial& rank = *parts[i % 3].add_ranks();
    rank.set_rank(ranks[i].first);
    rank.set_pid(ranks[i].second);
    rank.set_host("h");
  }
  prof::job::JobPartial all;
  for (const auto& part : parts) MergeJobPartial(part, &all);
  const std::vector<ProcessReport> ordered = JobReportsOf(all).reports;
  std::vector<std::vector<uint32_t>> indices(3);
  std::vector<size_t> counts(3);
  RunOnThreads(3, [&](Exchange& exchange) {  // Catch2 asserts on the main thread only
    const int me = exchange.Rank();
    indices[me] = IndexRanksSharded(exchange, parts[me].ranks(), &counts[me]);
  });
  for (int process = 0; process < 3; ++process) {
    const auto& mine = parts[process].ranks();
    CHECK(counts[process] == ranks.size());
    REQUIRE(indices[process].size() == static_cast<size_t>(mine.size()));
    for (int i = 0; i < mine.size(); ++i) {
      CHECK(ordered[indices[process][i]].identity.rank == mine[i].rank());
      CHECK(ordered[indices[process][i]].identity.pid == mine[i].pid());
    }
  }
}

}  // namespace
}  // namespace prof::analyzer
