// The hang analysis on synthetic dumps: the culprit of a hang, a missing dump, a
// mismatched collective, grouping at 10,000 ranks, a 40-rank communicator, and the
// recorders' losses summed.
#include "analyzer/job/hang_analysis.h"

#include <map>

#include <catch2/catch.hpp>

#include "proto/schema_enums.h"

namespace prof::analyzer {
namespace {

constexpr uint64_t kWorld = 0xabc;
constexpr int32_t kAllReduce = schema::NCCL_OPERATION_ALL_REDUCE;

// A rank that completed all-reduces 1..completed on the world communicator and, when
// `waiting`, entered completed+1 and is stuck in it.
RankDump Rank(int32_t rank, int32_t world, int64_t completed, bool waiting) {
  RankDump dump;
  dump.rank = rank;
  dump.world_size = world;
  dump.reason = waiting ? "hang" : "signal SIGTERM";
  dump.last_step = completed / 2;
  const int64_t last = completed + (waiting ? 1 : 0);
  for (int64_t seq = 1; seq <= last; ++seq) {
    CollectiveRecord record;
    record.comm_hash = kWorld;
    record.sequence = seq;
    record.operation = kAllReduce;
    record.rank_count = world;
    record.bytes = 4096;
    record.enter_ns = 1000 * seq;
    record.end_ns = 1000 * seq + 10;
    dump.calls.collectives.push_back(record);
  }
  if (waiting) dump.unfinished[{kWorld, last}] = kHost;
  return dump;
}

TEST_CASE("the rank that never entered the collective the others wait in is the culprit") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 8; ++rank) dumps.push_back(Rank(rank, 8, 24, rank != 3));
  dumps[3].last = {"cudaStreamWaitEvent (returned)", "Backward (open at the dump)",
                   "sgemm on stream 0x50"};
  dumps[2].last = {"cudaStreamSynchronize (running at the dump)", "", ""};
  const HangReport report = AnalyzeHang(dumps);
  REQUIRE(report.culprits.size() == 1);
  CHECK(report.culprits[0].rank == 3);
  // What the culprit did last is its own dump's, not a waiting rank's.
  CHECK(report.culprits[0].last.api_call == "cudaStreamWaitEvent (returned)");
  CHECK(report.culprits[0].last.range == "Backward (open at the dump)");
  CHECK(report.culprits[0].last.kernel == "sgemm on stream 0x50");
  CHECK(report.culprits[0].comm == kWorld);
  CHECK(report.culprits[0].seq == 25);
  CHECK(report.culprits[0].last_entered == 24);
  CHECK(report.culprits[0].last_step == 12);
  CHECK_FALSE(report.culprits[0].dump_missing);
  CHECK(report.missing_ranks.empty());
  REQUIRE(report.communicators.size() == 1);
  CHECK(report.communicators[0].waited_seq == 25);
  REQUIRE(report.communicators[0].groups.size() == 2);
  CHECK(report.communicators[0].groups[0].ranks == std::vector<int32_t>{0, 1, 2, 4, 5, 6, 7});
  CHECK(report.communicators[0].groups[1].ranks == std::vector<int32_t>{3});
  CHECK(report.mismatches.empty());
}

TEST_CASE("a missing dump is named, and is the culprit when everyone else waits") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 8; ++rank) {
    if (rank != 5) dumps.push_back(Rank(rank, 8, 24, true));
  }
  const HangReport report = AnalyzeHang(dumps);
  CHECK(report.missing_ranks == std::vector<int32_t>{5});
  REQUIRE(report.culprits.size() == 1);
  CHECK(report.culprits[0].rank == 5);
  CHECK(report.culprits[0].seq == 25);
  CHECK(report.culprits[0].dump_missing);
}

TEST_CASE("a collective called with another operation or size is flagged") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 4; ++rank) dumps.push_back(Rank(rank, 4, 10, false));
  dumps[2].calls.collectives[6].operation = schema::NCCL_OPERATION_BROADCAST;  // seq 7
  dumps[1].calls.collectives[8].bytes = 8192;                                  // seq 9
  const HangReport report = AnalyzeHang(dumps);
  REQUIRE(report.mismatches.size() == 2);
  CHECK(report.mismatches[0].seq == 7);
  REQUIRE(report.mismatches[0].variants.size() == 2);
  CHECK(report.mismatches[0].variants[0].ranks == std::vector<int32_t>{0, 1, 3});
  CHECK(report.mismatches[0].variants[1].ranks == std::vector<int32_t>{2});
  CHECK(report.mismatches[0].variants[1].operation == schema::NCCL_OPERATION_BROADCAST);
  CHECK(report.mismatches[1].seq == 9);
  CHECK(report.mismatches[1].variants[1].bytes == 8192);
  CHECK(report.culprits.empty());
}

TEST_CASE("10,000 ranks print as a few groups of rank ranges") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 10000; ++rank) {
    dumps.push_back(Rank(rank, 10000, 4, rank != 4711 && rank != 9000));
  }
  const HangReport report = AnalyzeHang(dumps);
  REQUIRE(report.culprits.size() == 2);
  CHECK(report.culprits[0].rank == 4711);
  CHECK(report.culprits[1].rank == 9000);
  REQUIRE(report.communicators[0].groups.size() == 2);
  CHECK(RankRanges(report.communicators[0].groups[0].ranks) == "0-4710,4712-8999,9001-9999");
  CHECK(RankRanges(report.communicators[0].groups[1].ranks) == "4711,9000");
}

// Every rank entered all-reduces 1..3 and returned from them (as real NCCL's calls do);
// #3 is unfinished on the GPU of the ranks in `states` (rank -> DeviceState).
std::vector<RankDump> GpuHang(const std::map<int32_t, int32_t>& states) {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 4; ++rank) {
    dumps.push_back(Rank(rank, 4, 3, false));
    const auto state = states.find(rank);
    if (state != states.end()) dumps.back().unfinished[{kWorld, 3}] = state->second;
  }
  return dumps;
}

TEST_CASE("a hang on the GPU: the rank whose copy never started while the others' did") {
  const HangReport report =
      AnalyzeHang(GpuHang({{0, kStarted}, {1, kStarted}, {2, kEnqueued}, {3, kStarted}}));
  REQUIRE(report.culprits.size() == 1);
  CHECK(report.culprits[0].rank == 2);
  CHECK(report.culprits[0].seq == 3);
  CHECK(report.culprits[0].state == "enqueued, not completed");
  CHECK_FALSE(report.culprits[0].dump_missing);
  REQUIRE(report.communicators[0].groups.size() == 2);
  CHECK(report.communicators[0].groups[0].state == "started #3 on the GPU, not completed");
  CHECK(report.communicators[0].groups[0].ranks == std::vector<int32_t>{0, 1, 3});
  CHECK(report.communicators[0].groups[1].state == "enqueued #3, not started on the GPU");
}

TEST_CASE("a hang on the GPU: the rank that did not complete what the others completed") {
  const HangReport report = AnalyzeHang(GpuHang({{1, kStarted}}));
  REQUIRE(report.culprits.size() == 1);
  CHECK(report.culprits[0].rank == 1);
  CHECK(report.culprits[0].state == "started, not completed");
}

TEST_CASE("a hang on the GPU where every copy started names nobody") {
  const HangReport report =
      AnalyzeHang(GpuHang({{0, kStarted}, {1, kStarted}, {2, kStarted}, {3, kStarted}}));
  CHECK(report.culprits.empty());
  CHECK(report.communicators[0].waited_seq == 3);
}

TEST_CASE("the host-side culprit keeps its state") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 4; ++rank) dumps.push_back(Rank(rank, 4, 5, rank != 0));
  const HangReport report = AnalyzeHang(dumps);
  REQUIRE(report.culprits.size() == 1);
  CHECK(report.culprits[0].state == "never entered");
}

TEST_CASE("rank ranges are capped") {
  CHECK(RankRanges({}) == "");
  CHECK(RankRanges({1, 3, 5, 7}, 2) == "1,3 ... (+2 more)");
  CHECK(RankRanges({0, 1, 2, 3}) == "0-3");
}


TEST_CASE("a 40-rank communicator: the culprit and the groups span all 40 ranks") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 40; ++rank) dumps.push_back(Rank(rank, 40, 24, rank != 35));
  const HangReport report = AnalyzeHang(dumps);
  CHECK(report.world_size == 40);
  REQUIRE(report.culprits.size() == 1);
  CHECK(report.culprits[0].rank == 35);
  CHECK(report.culprits[0].seq == 25);
  REQUIRE(report.communicators.size() == 1);
  CHECK(report.communicators[0].size == 40);
  REQUIRE(report.communicators[0].groups.size() == 2);
  CHECK(RankRanges(report.communicators[0].groups[0].ranks) == "0-34,36-39");
  CHECK(report.communicators[0].groups[0].ranks.size() == 39);
  CHECK(RankRanges(report.communicators[0].groups[1].ranks) == "35");
}

TEST_CASE("what the recorders lost is summed over the dumps") {
  std::vector<RankDump> dumps;
  for (int32_t rank = 0; rank < 3; ++rank) {
    dumps.push_back(Rank(rank, 3, 4, false));
    dumps.back().losses = {1u + rank, 0, 10u * rank, 2, rank == 1 ? 6u : 0u};
  }
  const HangReport report = AnalyzeHang(dumps);
  CHECK(report.losses.calls_overwritten == 1 + 2 + 3);
  CHECK(report.losses.calls_torn == 0);
  CHECK(report.losses.host_overwritten == 0 + 10 + 20);
  CHECK(report.losses.host_torn == 2 * 3);
  CHECK(report.losses.host_threads_refused == 6);
  CHECK(report.losses.Any());
  CHECK_FALSE(FlightLosses{}.Any());
}

}  // namespace
}  // namespace prof::analyzer
