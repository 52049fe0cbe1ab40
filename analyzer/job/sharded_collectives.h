// The job view's collective figures (CollectiveFigures: the match, the clocks, the
// arrivals) computed by many processes, none holding more than its share of the job's
// collectives: each rank's records go to the process that owns their communicator (a hash
// of its identity), which matches them; each rank's clock is fitted, and its waits summed,
// on process `rank index % processes`. Process 0 ends with what CollectiveFiguresOf
// computes for the whole job, to the bit: every floating-point sum is taken in the
// in-process order (collectives by communicator, then sequence), quantiles over the whole
// job are found by a distributed search, exact. What process 0 holds at the end is per
// rank and per communicator, not per collective (match.collectives stays empty).
//
//   std::vector<ShardRank> mine = ...;  // this process's ranks, by job rank index
//   CollectiveFigures figures = AnalyzeCollectivesSharded(exchange, std::move(mine), ranks);
//   if (exchange.Rank() == 0) job = AnalyzeJobWith(reports, unreadable, std::move(figures));
#ifndef PROF_ANALYZER_JOB_SHARDED_COLLECTIVES_H_
#define PROF_ANALYZER_JOB_SHARDED_COLLECTIVES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyzer/job/exchange.h"
#include "analyzer/job/job_analysis.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/summary/collective_table.h"

namespace prof::analyzer {

struct ShardRank {
  uint32_t index = 0;  // in the job's ranks (JobReportsOf's order), < rank_count
  std::vector<CollectiveRecord> collectives;
  std::vector<StepRecord> steps;  // analyzed by step number (sharded_steps.h)
};

// Called by every process of `exchange`, each with its own ranks (every rank of the job
// on exactly one process); `rank_count` the job's. Process 0 gets the job's figures, the
// steps' analysis included (steps_analyzed); the others get an empty value.
CollectiveFigures AnalyzeCollectivesSharded(Exchange& exchange, std::vector<ShardRank> ranks,
                                            size_t rank_count);

// Called by every process with its ranks (a partial's): their indices in the job, in
// `ranks`' order, as JobReportsOf orders every process's ranks together; `*rank_count`
// gets the job's. Only identities travel (to process 0, which orders them).
std::vector<uint32_t> IndexRanksSharded(
    Exchange& exchange, const google::protobuf::RepeatedPtrField<prof::job::RankPartial>& ranks,
    size_t* rank_count);

// The process that owns a communicator's collectives, of `processes`.
int CommunicatorOwner(uint64_t comm_hash, int processes);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_SHARDED_COLLECTIVES_H_
