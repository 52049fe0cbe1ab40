// Perf, NCCL, Memory and the cross-rank table on the two-rank scenario (scenarios.h).
#include <catch2/catch.hpp>

#include "analyzer/summary/nccl_summary.h"
#include "analyzer/summary/perf_summary.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/scenarios.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using testing::FindRow;
using testing::FindTable;

TEST_CASE("perf: explicit warm-up skip, averages over the steps summed, samples/s") {
  SummaryOptions options;
  const ProcessReport report =
      testing::Analyze(testing::WriteRankTrace("perf.pb", 0, 10000000), options);
  const SummaryTable& perf = *FindTable(report, "perf");
  CHECK(perf.preamble[0] ==
        "Steps: 12 recorded, first 10 skipped as warm-up (--perf-skip), 2 measured");
  CHECK(FindRow(perf, "batch_cost")->cells[1].value == Approx(0.01));
  CHECK(FindRow(perf, "reader_cost")->cells[1].value == Approx(0.001));
  CHECK(FindRow(perf, "ips")->cells[1].value == Approx(3200.0));  // 64 samples / 0.02 s
  CHECK(perf.preamble[1] == "Reader Ratio: 10.000%");
  options.perf_skip = 0;
  const ProcessReport all =
      testing::Analyze(testing::WriteRankTrace("perf0.pb", 0, 10000000), options);
  CHECK(FindTable(all, "perf")->preamble[0] ==
        "Steps: 12 recorded, first 0 skipped as warm-up (--perf-skip), 12 measured");
  options.perf_skip = 12;
  CHECK(FindTable(testing::Analyze(testing::WriteRankTrace("perf12.pb", 0, 10000000), options),
                  "perf") == nullptr);
  CHECK(PerfSkippedSteps(5, -1) == 0);
  CHECK(PerfSkippedSteps(11, -1) == 10);
}

TEST_CASE("perf: the IPS unit the program named (step_info(unit)) is the table's") {
  testing::TestTrace trace;
  for (int step = 0; step < 3; ++step) {
    trace.Step(1, 1000000 + step * 1000000, 2000000 + step * 1000000, step, 8);
  }
  trace.Mark(1, "libprof.ips_unit=tokens", 1500000);
  trace.Mark(1, "libprof.ips_unit=images", 2500000);  // the latest wins
  const ProcessReport named = testing::Analyze(trace.Write("ips_unit.pb"));
  const SummaryTable& perf = *FindTable(named, "perf");
  CHECK(perf.preamble.back() == "Time Unit: s, IPS Unit: images/s");
  testing::TestTrace plain;
  plain.Step(1, 1000000, 2000000, 0, 8);
  const ProcessReport unnamed = testing::Analyze(plain.Write("no_unit.pb"));
  const SummaryTable& samples = *FindTable(unnamed, "perf");
  CHECK(samples.preamble.back() == "Time Unit: s, IPS Unit: samples/s");
}

TEST_CASE("nccl: bucket, GPU time from the linked kernel, nccl-tests bus bandwidth") {
  const ProcessReport report = testing::Analyze(testing::WriteRankTrace("nccl.pb", 0, 10000000));
  const Row& row = *FindRow(*FindTable(report, "nccl"), "ALL_REDUCE");
  CHECK(row.cells[1].text == "4MiB-16MiB");
  CHECK(row.cells[2].value == 12);
  CHECK(row.cells[3].stats.avg_ns == Approx(1e6).epsilon(1e-5));  // kernel time, not the 20 us call
  CHECK(row.cells[5].value == Approx(8388608 / 1e6).epsilon(1e-4));
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_ALL_REDUCE, 4) == Approx(1.5));
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_ALL_GATHER, 4) == Approx(0.75));
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_BROADCAST, 4) == 1);
  // nccl-tests: alltoall, gather and scatter move S = count*e*n at (n-1)/n.
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_ALL_TO_ALL, 4) == Approx(0.75));
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_GATHER, 4) == Approx(0.75));
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_SCATTER, 8) == Approx(0.875));
  CHECK(BusBandwidthFactor(schema::NCCL_OPERATION_REDUCE, 4) == 1);
  CHECK(MessageSizeBucket(100) == "<1KiB");
  CHECK(MessageSizeBucket(4096) == "4KiB-16KiB");
  CHECK(MessageSizeBucket(uint64_t{3} << 30) == ">=1GiB");
}

TEST_CASE("nccl: new operations by name, an operation this build does not know by number") {
  NcclFigures figures;
  for (int operation :
       {int{schema::NCCL_OPERATION_GATHER}, int{schema::NCCL_OPERATION_SCATTER}, 99}) {
    NcclBucket& bucket = figures.buckets[{operation, 1024, "1KiB-4KiB"}];
    bucket.time.Add(1000);
    bucket.bytes = 2048;
    bucket.ranks = 2;
    figures.all_time_ns += 1000;
  }
  const std::optional<SummaryTable> table = NcclSummary(figures);
  REQUIRE(table.has_value());
  REQUIRE(FindRow(*table, "GATHER") != nullptr);
  CHECK(FindRow(*table, "GATHER")->cells[6].value == Approx(2048 / 1000.0 * 0.5));
  CHECK(FindRow(*table, "SCATTER") != nullptr);
  CHECK(FindRow(*table, "OP_99") != nullptr);
}

TEST_CASE("distribution: NCCL kernels are communication, others computation") {
  const ProcessReport report = testing::Analyze(testing::WriteRankTrace("dist.pb", 0, 10000000));
  const SummaryTable& table = *FindTable(report, "distributed");
  CHECK(FindRow(table, "Communication")->cells[1].value == Approx(12 * 1.02e6).epsilon(1e-4));
  CHECK(FindRow(table, "Computation")->cells[1].value == Approx(12 * 1.98e6).epsilon(1e-4));
  CHECK(FindRow(table, "Overlap")->cells[1].value == 0);
}

TEST_CASE("memory: peak, per-step high-water mark, blocks alive at the end") {
  const ProcessReport report = testing::Analyze(testing::WriteRankTrace("memory.pb", 0, 10000000));
  const Row& gpu = *FindRow(*FindTable(report, "memory"), "GPU0");
  CHECK(gpu.cells[1].value == 12);
  CHECK(gpu.cells[2].value == 11);
  CHECK(gpu.cells[5].value == 1 << 20);
  CHECK(gpu.cells[6].value == 1 << 20);
  CHECK(FindTable(report, "memory_steps")->rows.size() == 12);
  const SummaryTable& alive = *FindTable(report, "memory_alive");
  REQUIRE(alive.rows.size() == 1);
  CHECK(alive.rows[0].cells[0].text == "0x7f0000b00000");
}

TEST_CASE("several ranks: one row each and the slowest named") {
  std::vector<ProcessReport> reports;
  reports.push_back(testing::Analyze(testing::WriteRankTrace("r0.pb", 0, 10000000)));
  reports.push_back(testing::Analyze(testing::WriteRankTrace("r1.pb", 1, 15000000)));
  const SummaryTable table = RankSummary(reports);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[1].cells[4].value == 15000000);
  CHECK(table.epilogue[0] ==
        "Slowest: rank 1 (host testhost, pid 1001): average step 15.000 ms, 50.00% above the "
        "fastest (rank 0).");
}

}  // namespace
}  // namespace prof::analyzer
