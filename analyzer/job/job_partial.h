// The job view's one pipeline: every job view is built from a JobPartial (proto/
// job_partial.proto), whether its ranks were analyzed in this process (profanalyze),
// written by `profanalyze map` and read back by `profanalyze reduce`, or gathered over MPI
// (profanalyze-mpi). A partial holds, per rank, what the job view reads of its
// ProcessReport (identity, per-step figures, collectives, data-quality state), the
// finished tables of the ranks the output prints (TablePolicy), and the lines of the rank
// files that could not be read.
//
//   prof::job::JobPartial partial = JobPartialOf(inputs.reports, inputs.unreadable);
//   MergeJobPartial(std::move(other), &partial);  // any order, any grouping
//   JobReports job = JobReportsOf(partial);       // sorted: what AnalyzeJob reads
#ifndef PROF_ANALYZER_JOB_JOB_PARTIAL_H_
#define PROF_ANALYZER_JOB_JOB_PARTIAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/summary/report.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer {

inline constexpr char kJobPartialSchema[] = "profanalyze.job_partial";
// 2: ranks carry their tables (version 1 partials have none).
inline constexpr uint32_t kJobPartialVersion = 2;

// Which ranks' tables a partial carries: only what the output prints, so a 10,000-rank
// job whose output is the job view holds no rank's tables.
struct TablePolicy {
  enum class Kind { kNone, kOneRank, kAll };
  Kind kind = Kind::kNone;
  int rank = -1;  // kOneRank
  bool Keeps(int process_rank) const {
    return kind == Kind::kAll || (kind == Kind::kOneRank && process_rank == rank);
  }
};

// The job view's part of `reports`, the tables `tables` keeps, and the unreadable lines.
prof::job::JobPartial JobPartialOf(const std::vector<ProcessReport>& reports,
                                   const std::vector<std::string>& unreadable,
                                   const TablePolicy& tables = {});

// Drops the tables of the ranks `tables` does not keep (a reduce that learned the job is
// larger than it thought).
void ApplyTablePolicy(const TablePolicy& tables, prof::job::JobPartial* partial);

// Appends `from` to `into`: concatenation, so merging is associative and commutative up
// to the order JobReportsOf sorts away.
void MergeJobPartial(prof::job::JobPartial from, prof::job::JobPartial* into);

// A partial as the summary reads it: reports in (rank, host, pid) order, as the
// in-process reader orders them, with identity, per-step figures, collectives and the
// tables the partial carries, and the unreadable lines sorted. A rank whose tables this
// build cannot read keeps its figures and adds one unreadable line.
struct JobReports {
  std::vector<ProcessReport> reports;
  std::vector<std::string> unreadable;
};
JobReports JobReportsOf(const prof::job::JobPartial& partial);

// The order JobReportsOf gives ranks, for indexing a job's ranks without gathering its
// partials (profanalyze-mpi); and one rank's collectives and steps as a report holds them.
bool RankPartialBefore(const prof::job::RankPartial& a, const prof::job::RankPartial& b);
CollectiveTable CollectiveTableOf(const prof::job::RankPartial& rank);

// The serialized partial; ParseJobPartial names what is wrong ("not a job partial",
// "version 7 is newer than this profanalyze reads (1)").
std::string SerializeJobPartial(const prof::job::JobPartial& partial);
absl::StatusOr<prof::job::JobPartial> ParseJobPartial(const std::string& bytes);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_JOB_PARTIAL_H_
