// A job partial is self-describing (schema + version) and round-trips every figure the job
// view reads; merging is concatenation, and JobReportsOf sorts it into the reader's order.
#include "analyzer/job/job_partial.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

ProcessReport Report(int32_t rank, const std::string& host, int64_t pid) {
  ProcessReport report;
  report.identity.rank = rank;
  report.identity.host = host;
  report.identity.pid = pid;
  report.step_count = 3;
  report.total_ns = 900;
  report.quality_perfect = rank != 2;
  report.collectives.collectives.push_back({0xC0, 7, 2, 4, 1024, 100, 250, 1, true});
  report.collectives.steps.push_back({1, 50, 300, 150});
  return report;
}

TEST_CASE("job partial: every figure the job view reads survives serialization") {
  const std::string bytes =
      SerializeJobPartial(JobPartialOf({Report(3, "h", 42)}, {"x.pb: truncated"}));
  absl::StatusOr<prof::job::JobPartial> parsed = ParseJobPartial(bytes);
  REQUIRE(parsed.ok());
  CHECK(parsed->schema() == "profanalyze.job_partial");
  CHECK(parsed->version() == 2);
  const JobReports job = JobReportsOf(*parsed);
  REQUIRE(job.reports.size() == 1);
  const ProcessReport& report = job.reports[0];
  CHECK(report.identity.rank == 3);
  CHECK(report.identity.pid == 42);
  CHECK(report.total_ns == 900);
  REQUIRE(report.collectives.collectives.size() == 1);
  const CollectiveRecord& call = report.collectives.collectives[0];
  CHECK(call.comm_hash == 0xC0);
  CHECK(call.sequence == 7);
  CHECK(call.bytes == 1024);
  CHECK(call.enter_ns == 100);
  CHECK(call.end_ns == 250);
  CHECK(call.kernel_timed);
  REQUIRE(report.collectives.steps.size() == 1);
  CHECK(report.collectives.steps[0].ComputeNs() == 250 - 150);
  CHECK(job.unreadable == std::vector<std::string>{"x.pb: truncated"});
}

TEST_CASE("job partial: merged in any order, read in (rank, host, pid) order") {
  prof::job::JobPartial a = JobPartialOf({Report(2, "h", 1), Report(0, "h", 9)}, {"b"});
  prof::job::JobPartial b = JobPartialOf({Report(1, "g", 5)}, {"a"});
  MergeJobPartial(std::move(a), &b);
  const JobReports job = JobReportsOf(b);
  REQUIRE(job.reports.size() == 3);
  CHECK(job.reports[0].identity.rank == 0);
  CHECK(job.reports[1].identity.rank == 1);
  CHECK(job.reports[2].identity.rank == 2);
  CHECK_FALSE(job.reports[2].quality_perfect);
  CHECK(job.unreadable == std::vector<std::string>{"a", "b"});
}

TEST_CASE("job partial: another message or a newer version is refused with one line") {
  CHECK(ParseJobPartial("not a partial").status().message() ==
        "not a job partial (written by profanalyze map)");
  prof::job::JobPartial newer = JobPartialOf({}, {});
  newer.set_version(99);
  CHECK(ParseJobPartial(SerializeJobPartial(newer)).status().message() ==
        "job partial version 99 is newer than this profanalyze reads (2)");
}

TEST_CASE("job partial: only the ranks the policy keeps carry their tables, and they round-trip") {
  std::vector<ProcessReport> reports = {Report(0, "h", 1), Report(1, "h", 2)};
  for (ProcessReport& report : reports) {
    report.tables.emplace_back();
    report.tables.back().key = "kernel";
    report.tables.back().AddRow({Cell::Time(1500), Cell::Text("k")});
  }
  const TablePolicy one{TablePolicy::Kind::kOneRank, 1};
  prof::job::JobPartial partial = JobPartialOf(reports, {}, one);
  CHECK(partial.ranks(0).tables_size() == 0);
  REQUIRE(partial.ranks(1).tables_size() == 1);
  JobReports job = JobReportsOf(*ParseJobPartial(SerializeJobPartial(partial)));
  REQUIRE(job.reports[1].tables.size() == 1);
  CHECK(job.reports[1].tables[0].key == "kernel");
  CHECK(job.reports[1].tables[0].rows[0].cells[0].value == 1500);
  CHECK(JobPartialOf(reports, {}).ranks(1).tables_size() == 0);  // default: no tables
  ApplyTablePolicy(TablePolicy{}, &partial);
  CHECK(partial.ranks(1).tables_size() == 0);
  // A table this build cannot read: the rank keeps its figures, and one line says why.
  partial = JobPartialOf(reports, {}, TablePolicy{TablePolicy::Kind::kAll});
  partial.mutable_ranks(0)->mutable_tables(0)->set_style(9);
  job = JobReportsOf(partial);
  CHECK(job.reports[0].tables.empty());
  CHECK(job.reports[0].total_ns == 900);
  REQUIRE(job.unreadable.size() == 1);
  CHECK(job.unreadable[0] ==
        "rank 0 (host h, pid 1): tables not shown: table style 9 is unknown to this profanalyze");
}

}  // namespace
}  // namespace prof::analyzer
