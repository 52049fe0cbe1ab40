// Matches collectives across ranks by (communicator hash, sequence number), as PyTorch's
// Flight Recorder does: the agent numbers each communicator's calls, so the k-th call on a
// communicator is the same collective on every member. No clocks are needed to match.
//
//   std::vector<const CollectiveTable*> ranks = ...;  // by rank index
//   CollectiveMatch match = MatchCollectives(ranks);
#ifndef PROF_ANALYZER_JOB_COLLECTIVE_MATCH_H_
#define PROF_ANALYZER_JOB_COLLECTIVE_MATCH_H_

#include <cstdint>
#include <vector>

#include "analyzer/summary/collective_table.h"

namespace prof::analyzer {

// One rank's part in a matched collective, on that rank's own clock.
struct Arrival {
  uint32_t rank_index = 0;  // index into the job's ranks
  uint64_t enter_ns = 0;
  uint64_t end_ns = 0;
  int32_t operation = 0;  // as this rank called it (differs where mismatched)
  uint64_t bytes = 0;
};

struct MatchedCollective {
  uint64_t comm_hash = 0;
  int64_t sequence = 0;
  int32_t operation = 0;  // schema::NcclOperation (of the first rank seen)
  uint64_t bytes = 0;
  int64_t step = -1;              // step number on the first rank seen
  std::vector<Arrival> arrivals;  // by rank index
  bool complete = false;          // every member of the communicator is present
  bool n_to_n = false;            // all-reduce, all-gather, reduce-scatter, all-to-all
  bool mismatched = false;        // some rank called it with another operation or size
};

struct CollectiveMatch {
  std::vector<MatchedCollective> collectives;  // by (communicator, sequence)
  uint64_t matched = 0;     // collectives.size(); kept where they are not (sharded_collectives.h)
  uint64_t incomplete = 0;  // members missing (counted per rank in missing_per_rank)
  uint64_t mismatched = 0;  // ranks disagree on the operation or the size
  uint64_t unnumbered = 0;  // calls without a sequence number (older agents): not matched
  uint64_t duplicates = 0;  // a second call with the same (communicator, sequence) on one rank
  std::vector<uint64_t>
      missing_per_rank;                  // by rank index: incomplete collectives it is missing from
  std::vector<uint64_t> calls_per_rank;  // by rank index: collectives it called
};

// A communicator's members are the ranks seen on it; it is complete at a collective when
// all of them (and at least its recorded size, where known) are present.
CollectiveMatch MatchCollectives(const std::vector<const CollectiveTable*>& ranks);

// True for the operations whose ends are near-simultaneous on every member.
bool IsNToN(int32_t operation);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_COLLECTIVE_MATCH_H_
