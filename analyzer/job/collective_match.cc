#include "analyzer/job/collective_match.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "proto/schema_enums.h"

namespace prof::analyzer {
namespace {

using Key = std::pair<uint64_t, int64_t>;  // (communicator hash, sequence)

// Members per communicator, its largest recorded size.
struct Communicator {
  std::set<uint32_t> members;
  int32_t size = 0;
};

void AddArrival(uint32_t rank, const CollectiveRecord& record, MatchedCollective* collective,
                CollectiveMatch* match) {
  if (collective->arrivals.empty()) {
    collective->operation = record.operation;
    collective->bytes = record.bytes;
    collective->step = record.step;
  } else if (collective->arrivals.back().rank_index == rank) {
    ++match->duplicates;  // the first call stands
    return;
  } else if (collective->operation != record.operation || collective->bytes != record.bytes) {
    ++match->mismatched;
    collective->mismatched = true;
  }
  collective->arrivals.push_back(
      {rank, record.enter_ns, record.end_ns, record.operation, record.bytes});
}

}  // namespace

bool IsNToN(int32_t operation) {
  return operation == schema::NCCL_OPERATION_ALL_REDUCE ||
         operation == schema::NCCL_OPERATION_ALL_GATHER ||
         operation == schema::NCCL_OPERATION_REDUCE_SCATTER ||
         operation == schema::NCCL_OPERATION_ALL_TO_ALL;
}

CollectiveMatch MatchCollectives(const std::vector<const CollectiveTable*>& ranks) {
  CollectiveMatch match;
  match.missing_per_rank.assign(ranks.size(), 0);
  match.calls_per_rank.assign(ranks.size(), 0);
  std::map<Key, MatchedCollective> by_key;
  std::map<uint64_t, Communicator> communicators;
  for (uint32_t rank = 0; rank < ranks.size(); ++rank) {  // rank order: arrivals stay sorted
    for (const CollectiveRecord& record : ranks[rank]->collectives) {
      ++match.calls_per_rank[rank];
      if (record.sequence == 0) {
        ++match.unnumbered;
        continue;
      }
      Communicator& communicator = communicators[record.comm_hash];
      communicator.members.insert(rank);
      communicator.size = std::max(communicator.size, record.rank_count);
      MatchedCollective& collective = by_key[{record.comm_hash, record.sequence}];
      collective.comm_hash = record.comm_hash;
      collective.sequence = record.sequence;
      AddArrival(rank, record, &collective, &match);
    }
  }
  match.collectives.reserve(by_key.size());
  for (auto& [key, collective] : by_key) {
    const Communicator& communicator = communicators[key.first];
    const size_t expected = std::max<size_t>(communicator.members.size(), communicator.size);
    collective.complete = collective.arrivals.size() >= expected;
    collective.n_to_n = IsNToN(collective.operation);
    if (!collective.complete) {
      ++match.incomplete;
      size_t next = 0;
      for (uint32_t member : communicator.members) {
        while (next < collective.arrivals.size() && collective.arrivals[next].rank_index < member)
          ++next;
        if (next == collective.arrivals.size() || collective.arrivals[next].rank_index != member) {
          ++match.missing_per_rank[member];
        }
      }
    }
    match.collectives.push_back(std::move(collective));
  }
  match.matched = match.collectives.size();
  return match;
}

}  // namespace prof::analyzer
