#include "analyzer/job/job_partial.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "analyzer/job/table_proto.h"

namespace prof::analyzer {
namespace {

using prof::job::CollectiveColumns;
using prof::job::JobPartial;
using prof::job::RankPartial;
using prof::job::StepColumns;

void AddColumns(const CollectiveTable& table, RankPartial* rank) {
  CollectiveColumns& columns = *rank->mutable_collectives();
  for (const CollectiveRecord& record : table.collectives) {
    columns.add_comm_hash(record.comm_hash);
    columns.add_sequence(record.sequence);
    columns.add_operation(record.operation);
    columns.add_rank_count(record.rank_count);
    columns.add_bytes(record.bytes);
    columns.add_enter_ns(record.enter_ns);
    columns.add_end_ns(record.end_ns);
    columns.add_step(record.step);
    columns.add_kernel_timed(record.kernel_timed);
  }
  StepColumns& steps = *rank->mutable_steps();
  for (const StepRecord& step : table.steps) {
    steps.add_number(step.number);
    steps.add_start_ns(step.start_ns);
    steps.add_end_ns(step.end_ns);
    steps.add_collective_ns(step.collective_ns);
  }
}

RankPartial RankPartialOf(const ProcessReport& report, bool with_tables) {
  RankPartial rank;
  rank.set_rank(report.identity.rank);
  rank.set_world_size(report.identity.world_size);
  rank.set_host(report.identity.host);
  rank.set_pid(report.identity.pid);
  for (const std::string& file : report.files) rank.add_files(file);
  rank.set_event_count(report.event_count);
  rank.set_step_count(report.step_count);
  rank.set_total_ns(report.total_ns);
  rank.set_communication_ns(report.communication_ns);
  rank.set_computation_ns(report.computation_ns);
  rank.set_overlap_ns(report.overlap_ns);
  rank.set_quality_perfect(report.quality_perfect);
  for (const auto& [item, count] : report.quality_counts) {
    prof::job::QualityCount* quality = rank.add_quality();
    quality->set_item(item);
    quality->set_count(count);
  }
  AddColumns(report.collectives, &rank);
  if (with_tables) {
    for (const SummaryTable& table : report.tables) *rank.add_tables() = TableToProto(table);
  }
  return rank;
}

}  // namespace

// Columns of unequal length (a damaged partial) are read up to the shortest.
CollectiveTable CollectiveTableOf(const RankPartial& rank) {
  CollectiveTable table;
  const CollectiveColumns& c = rank.collectives();
  const int calls = std::min({c.comm_hash_size(), c.sequence_size(), c.operation_size(),
                              c.rank_count_size(), c.bytes_size(), c.enter_ns_size(),
                              c.end_ns_size(), c.step_size(), c.kernel_timed_size()});
  table.collectives.reserve(calls);
  for (int i = 0; i < calls; ++i) {
    table.collectives.push_back({c.comm_hash(i), c.sequence(i), c.operation(i), c.rank_count(i),
                                 c.bytes(i), c.enter_ns(i), c.end_ns(i), c.step(i),
                                 c.kernel_timed(i)});
  }
  const StepColumns& s = rank.steps();
  const int steps =
      std::min({s.number_size(), s.start_ns_size(), s.end_ns_size(), s.collective_ns_size()});
  table.steps.reserve(steps);
  for (int i = 0; i < steps; ++i)
    table.steps.push_back({s.number(i), s.start_ns(i), s.end_ns(i), s.collective_ns(i)});
  return table;
}

namespace {

// The rank's tables, or none and one line saying why.
void AddTables(const RankPartial& rank, ProcessReport* report,
               std::vector<std::string>* unreadable) {
  for (const prof::job::Table& message : rank.tables()) {
    absl::StatusOr<SummaryTable> table = TableFromProto(message);
    if (!table.ok()) {
      report->tables.clear();
      unreadable->push_back(absl::StrCat("rank ", rank.rank(), " (host ", rank.host(), ", pid ",
                                         rank.pid(),
                                         "): tables not shown: ", table.status().message()));
      return;
    }
    report->tables.push_back(*std::move(table));
  }
}

ProcessReport ReportOf(const RankPartial& rank, std::vector<std::string>* unreadable) {
  ProcessReport report;
  report.identity.rank = rank.rank();
  report.identity.world_size = rank.world_size();
  report.identity.host = rank.host();
  report.identity.pid = rank.pid();
  report.files.assign(rank.files().begin(), rank.files().end());
  report.event_count = rank.event_count();
  report.step_count = rank.step_count();
  report.total_ns = rank.total_ns();
  report.communication_ns = rank.communication_ns();
  report.computation_ns = rank.computation_ns();
  report.overlap_ns = rank.overlap_ns();
  report.quality_perfect = rank.quality_perfect();
  for (const prof::job::QualityCount& quality : rank.quality())
    report.quality_counts.emplace_back(quality.item(), quality.count());
  report.collectives = CollectiveTableOf(rank);
  AddTables(rank, &report, unreadable);
  return report;
}

bool RankBefore(const RankPartial* a, const RankPartial* b) { return RankPartialBefore(*a, *b); }

}  // namespace

// The in-process reader's order (read/process_files.h), then the files to break ties.
bool RankPartialBefore(const RankPartial& a, const RankPartial& b) {
  if (a.rank() != b.rank()) return a.rank() < b.rank();
  if (a.host() != b.host()) return a.host() < b.host();
  if (a.pid() != b.pid()) return a.pid() < b.pid();
  return std::lexicographical_compare(a.files().begin(), a.files().end(), b.files().begin(),
                                      b.files().end());
}

JobPartial JobPartialOf(const std::vector<ProcessReport>& reports,
                        const std::vector<std::string>& unreadable, const TablePolicy& tables) {
  JobPartial partial;
  partial.set_schema(kJobPartialSchema);
  partial.set_version(kJobPartialVersion);
  for (const ProcessReport& report : reports) {
    *partial.add_ranks() = RankPartialOf(report, tables.Keeps(report.identity.rank));
  }
  for (const std::string& line : unreadable) partial.add_unreadable(line);
  return partial;
}

void MergeJobPartial(JobPartial from, JobPartial* into) {
  into->set_schema(kJobPartialSchema);
  into->set_version(kJobPartialVersion);
  for (RankPartial& rank : *from.mutable_ranks()) *into->add_ranks() = std::move(rank);
  for (std::string& line : *from.mutable_unreadable()) into->add_unreadable(std::move(line));
}

void ApplyTablePolicy(const TablePolicy& tables, JobPartial* partial) {
  for (RankPartial& rank : *partial->mutable_ranks()) {
    // Swapped out, not cleared: a cleared repeated field keeps its messages for reuse.
    if (!tables.Keeps(rank.rank()))
      google::protobuf::RepeatedPtrField<prof::job::Table>().Swap(rank.mutable_tables());
  }
}

JobReports JobReportsOf(const JobPartial& partial) {
  std::vector<const RankPartial*> ranks;
  for (const RankPartial& rank : partial.ranks()) ranks.push_back(&rank);
  std::sort(ranks.begin(), ranks.end(), RankBefore);
  JobReports job;
  job.reports.reserve(ranks.size());
  job.unreadable.assign(partial.unreadable().begin(), partial.unreadable().end());
  for (const RankPartial* rank : ranks) job.reports.push_back(ReportOf(*rank, &job.unreadable));
  std::sort(job.unreadable.begin(), job.unreadable.end());
  return job;
}

std::string SerializeJobPartial(const JobPartial& partial) {
  std::string bytes;
  partial.SerializeToString(&bytes);
  return bytes;
}

absl::StatusOr<JobPartial> ParseJobPartial(const std::string& bytes) {
  JobPartial partial;
  if (!partial.ParseFromString(bytes) || partial.schema() != kJobPartialSchema) {
    return absl::InvalidArgumentError("not a job partial (written by profanalyze map)");
  }
  if (partial.version() > kJobPartialVersion) {
    return absl::InvalidArgumentError(absl::StrCat("job partial version ", partial.version(),
                                                   " is newer than this profanalyze reads (",
                                                   kJobPartialVersion, ")"));
  }
  return partial;
}

}  // namespace prof::analyzer
