#include "analyzer/job/sharded_collectives.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "analyzer/job/sharded_clock_fit.h"
#include "analyzer/job/sharded_steps.h"

namespace prof::analyzer {
namespace {

struct WireRecord {
  uint32_t index = 0;
  CollectiveRecord record;
};

// A wait, or a last arrival, for the process that sums rank `index`'s (sharded_clock_fit.h).
struct WireWait {
  uint64_t comm_hash = 0;
  int64_t sequence = 0;
  uint32_t index = 0;
  double waited_ns = 0;
  double lateness_ns = 0;  // last arrivals only
};

struct WireCount {
  uint32_t index = 0;
  uint64_t count = 0;
};

struct WireValue {
  uint32_t index = 0;
  double value = 0;
};

// The job-wide counts; summed on process 0.
struct Counts {
  uint64_t matched = 0, incomplete = 0, mismatched = 0, unnumbered = 0, duplicates = 0;
  uint64_t analyzed = 0;
};

// What each process hands process 0 at the end: per rank and per communicator only.
struct Result {
  Counts counts;
  std::vector<WireCount> calls;                     // by the rank's process
  std::vector<WireCount> missing;                   // by the communicators' owners
  std::vector<WireValue> waited;                    // by the rank's fitter
  std::vector<WireValue> residual;                  // by the rank's fitter
  std::vector<LastArrival> last;                    // by the rank's fitter
  std::vector<CommunicatorArrivals> communicators;  // by the owner
};

// Sends each rank's numbered collectives to their communicators' owners and matches what
// this process owns; counts each rank's calls and the unnumbered ones.
CollectiveMatch MatchOwned(Exchange& exchange, std::vector<ShardRank> ranks, size_t rank_count,
                           Result* result) {
  // Each rank's records are freed as they are written out: the job's collectives are held
  // about once at a time, here and at their owners.
  std::vector<std::string> blobs(exchange.Size());
  std::vector<size_t> bytes(exchange.Size(), 0);  // reserved, not grown: no doubled capacity
  for (const ShardRank& rank : ranks) {
    for (const CollectiveRecord& record : rank.collectives)
      bytes[CommunicatorOwner(record.comm_hash, exchange.Size())] += sizeof(WireRecord);
  }
  for (int to = 0; to < exchange.Size(); ++to) blobs[to].reserve(bytes[to]);
  for (ShardRank& rank : ranks) {
    result->calls.push_back({rank.index, rank.collectives.size()});
    for (const CollectiveRecord& record : rank.collectives) {
      if (record.sequence == 0) {
        ++result->counts.unnumbered;  // not matched, as MatchCollectives counts them
        continue;
      }
      const WireRecord wire{rank.index, record};
      blobs[CommunicatorOwner(record.comm_hash, exchange.Size())].append(
          reinterpret_cast<const char*>(&wire), sizeof(wire));
    }
    std::vector<CollectiveRecord>().swap(rank.collectives);
  }
  // One sender holds all of a rank's records, in the rank's order, as MatchCollectives
  // reads each rank's table.
  std::map<uint32_t, CollectiveTable> tables;
  for (std::string& blob : exchange.AllToAll(std::move(blobs))) {
    for (size_t at = 0; at + sizeof(WireRecord) <= blob.size(); at += sizeof(WireRecord)) {
      WireRecord wire;
      std::memcpy(static_cast<void*>(&wire), blob.data() + at, sizeof(wire));
      tables[wire.index].collectives.push_back(wire.record);
    }
    std::string().swap(blob);
  }
  const CollectiveTable none;
  std::vector<const CollectiveTable*> by_index(rank_count, &none);
  for (const auto& [index, table] : tables) by_index[index] = &table;
  CollectiveMatch match = MatchCollectives(by_index);
  tables.clear();
  Counts& counts = result->counts;
  counts.matched = match.matched;
  counts.incomplete = match.incomplete;
  counts.mismatched = match.mismatched;
  counts.duplicates = match.duplicates;
  for (uint32_t index = 0; index < rank_count; ++index) {
    if (match.missing_per_rank[index] > 0)
      result->missing.push_back({index, match.missing_per_rank[index]});
  }
  return match;
}

// Sums each rank's waits, and its last arrivals, in (communicator, sequence) order.
void FoldWaits(std::vector<WireWait> waits, std::vector<WireWait> lasts, Result* result) {
  SortRankRuns(&waits);
  for (size_t i = 0; i < waits.size();) {
    WireValue sum{waits[i].index, 0};
    for (; i < waits.size() && waits[i].index == sum.index; ++i) sum.value += waits[i].waited_ns;
    result->waited.push_back(sum);
  }
  SortRankRuns(&lasts);
  for (size_t i = 0; i < lasts.size();) {
    LastArrival entry;
    entry.rank_index = lasts[i].index;
    for (; i < lasts.size() && lasts[i].index == entry.rank_index; ++i) {
      CollectiveWaits waits;
      waits.waited_ns = lasts[i].waited_ns;
      waits.lateness_ns = lasts[i].lateness_ns;
      AddLastArrival(waits, &entry);
    }
    result->last.push_back(entry);
  }
}

// AnalyzeArrivals over the collectives this process owns; each member's wait goes to the
// process that sums that rank's.
void ArrivalsOwned(Exchange& exchange, const CollectiveMatch& match, const ClockFit& clock,
                   Result* result) {
  const int size = exchange.Size();
  std::vector<std::vector<WireWait>> waits(size), lasts(size);
  std::map<uint64_t, CommunicatorTally> communicators;
  for (const MatchedCollective& collective : match.collectives) {
    if (!Analyzable(collective, clock)) continue;
    const CollectiveWaits found = WaitsOf(collective, clock);
    for (const auto& [rank, waited] : found.waits) {
      waits[RankFitter(rank, size)].push_back(
          {collective.comm_hash, collective.sequence, rank, waited, 0});
    }
    lasts[RankFitter(found.last_rank, size)].push_back({collective.comm_hash, collective.sequence,
                                                        found.last_rank, found.waited_ns,
                                                        found.lateness_ns});
    communicators[collective.comm_hash].Add(collective, found);
    ++result->counts.analyzed;
  }
  for (auto& [hash, tally] : communicators) result->communicators.push_back(tally.Finish());
  std::vector<std::string> blobs(size);
  for (int to = 0; to < size; ++to) {
    PutRecords(waits[to], &blobs[to]);
    PutRecords(lasts[to], &blobs[to]);
  }
  std::vector<WireWait> mine, my_lasts;
  for (const std::string& blob : exchange.AllToAll(std::move(blobs))) {
    size_t at = 0;
    GetRecords(blob, &at, &mine);
    GetRecords(blob, &at, &my_lasts);
  }
  FoldWaits(std::move(mine), std::move(my_lasts), result);
}

std::string Encode(const Result& result) {
  std::string bytes;
  PutRecords(std::vector<Counts>{result.counts}, &bytes);
  PutRecords(result.calls, &bytes);
  PutRecords(result.missing, &bytes);
  PutRecords(result.waited, &bytes);
  PutRecords(result.residual, &bytes);
  PutRecords(result.last, &bytes);
  PutRecords(result.communicators, &bytes);
  return bytes;
}

// Process 0: every process's result, as CollectiveFiguresOf's.
CollectiveFigures Assemble(const std::vector<std::string>& blobs, size_t rank_count,
                           ClockFit clock) {
  std::vector<Counts> counts;
  Result all;
  for (const std::string& blob : blobs) {
    size_t at = 0;
    GetRecords(blob, &at, &counts);
    GetRecords(blob, &at, &all.calls);
    GetRecords(blob, &at, &all.missing);
    GetRecords(blob, &at, &all.waited);
    GetRecords(blob, &at, &all.residual);
    GetRecords(blob, &at, &all.last);
    GetRecords(blob, &at, &all.communicators);
  }
  CollectiveFigures figures;
  CollectiveMatch& match = figures.match;
  for (const Counts& c : counts) {
    match.matched += c.matched;
    match.incomplete += c.incomplete;
    match.mismatched += c.mismatched;
    match.unnumbered += c.unnumbered;
    match.duplicates += c.duplicates;
    figures.arrivals.analyzed_collectives += c.analyzed;
  }
  match.calls_per_rank.assign(rank_count, 0);
  match.missing_per_rank.assign(rank_count, 0);
  for (const WireCount& calls : all.calls) match.calls_per_rank[calls.index] = calls.count;
  for (const WireCount& missing : all.missing)
    match.missing_per_rank[missing.index] += missing.count;
  for (const WireValue& residual : all.residual)
    clock.ranks[residual.index].residual_ns = residual.value;
  figures.clock = std::move(clock);
  StragglerAnalysis& arrivals = figures.arrivals;
  arrivals.waited_ns.assign(rank_count, 0);
  for (const WireValue& waited : all.waited) arrivals.waited_ns[waited.index] = waited.value;
  arrivals.last_arrivals = std::move(all.last);
  std::sort(arrivals.last_arrivals.begin(), arrivals.last_arrivals.end(),
            [](const LastArrival& a, const LastArrival& b) { return a.rank_index < b.rank_index; });
  SortLastArrivals(&arrivals.last_arrivals);
  arrivals.communicators = std::move(all.communicators);
  std::sort(arrivals.communicators.begin(), arrivals.communicators.end(),
            [](const CommunicatorArrivals& a, const CommunicatorArrivals& b) {
              return a.comm_hash < b.comm_hash;
            });
  SortCommunicators(&arrivals.communicators);
  return figures;
}

// Process 0: the identities every process sent, ordered as JobReportsOf orders ranks;
// returns, for each process, [job rank count][its ranks' indices].
std::vector<std::string> IndexOnProcessZero(const std::vector<std::string>& blobs) {
  std::vector<prof::job::JobPartial> sent(blobs.size());
  std::vector<std::pair<size_t, int>> order;  // (process, position)
  for (size_t from = 0; from < blobs.size(); ++from) {
    sent[from].ParseFromString(blobs[from]);  // written by this binary, in this job
    for (int i = 0; i < sent[from].ranks_size(); ++i) order.push_back({from, i});
  }
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return RankPartialBefore(sent[a.first].ranks(a.second), sent[b.first].ranks(b.second));
  });
  std::vector<std::vector<uint32_t>> indices(blobs.size());
  for (size_t from = 0; from < blobs.size(); ++from) indices[from].resize(sent[from].ranks_size());
  for (uint32_t index = 0; index < order.size(); ++index)
    indices[order[index].first][order[index].second] = index;
  std::vector<std::string> replies(blobs.size());
  for (size_t to = 0; to < blobs.size(); ++to) {
    PutRecords(std::vector<uint64_t>{order.size()}, &replies[to]);
    PutRecords(indices[to], &replies[to]);
  }
  return replies;
}

}  // namespace

std::vector<uint32_t> IndexRanksSharded(
    Exchange& exchange, const google::protobuf::RepeatedPtrField<prof::job::RankPartial>& ranks,
    size_t* rank_count) {
  prof::job::JobPartial identities;
  for (const prof::job::RankPartial& rank : ranks) {
    prof::job::RankPartial& identity = *identities.add_ranks();
    identity.set_rank(rank.rank());
    identity.set_host(rank.host());
    identity.set_pid(rank.pid());
    *identity.mutable_files() = rank.files();
  }
  std::vector<std::string> blobs(exchange.Size());
  identities.SerializeToString(&blobs[0]);
  std::vector<std::string> received = exchange.AllToAll(std::move(blobs));
  std::vector<std::string> replies(exchange.Size());
  if (exchange.Rank() == 0) replies = IndexOnProcessZero(received);
  const std::vector<std::string> answers = exchange.AllToAll(std::move(replies));
  std::vector<uint64_t> count;
  std::vector<uint32_t> indices;
  size_t at = 0;
  GetRecords(answers[0], &at, &count);
  GetRecords(answers[0], &at, &indices);
  *rank_count = count.empty() ? 0 : count[0];
  return indices;
}

int CommunicatorOwner(uint64_t comm_hash, int processes) {
  // A mixed hash: communicator hashes made by counting would otherwise fall on one owner.
  uint64_t x = comm_hash + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<int>(x % static_cast<uint64_t>(processes));
}

CollectiveFigures AnalyzeCollectivesSharded(Exchange& exchange, std::vector<ShardRank> ranks,
                                            size_t rank_count) {
  Result result;
  StragglerAnalysis steps;
  {
    std::vector<StepShard> step_shards;
    for (const ShardRank& rank : ranks) step_shards.push_back({rank.index, &rank.steps});
    AnalyzeStepsSharded(exchange, step_shards, rank_count, &steps);
  }
  const CollectiveMatch match = MatchOwned(exchange, std::move(ranks), rank_count, &result);
  ShardedFit fit = FitClocksSharded(exchange, match, rank_count);
  for (const auto& [index, residual] : fit.residuals) result.residual.push_back({index, residual});
  ArrivalsOwned(exchange, match, fit.clock, &result);
  std::vector<std::string> blobs(exchange.Size());
  blobs[0] = Encode(result);
  const std::vector<std::string> results = exchange.AllToAll(std::move(blobs));
  if (exchange.Rank() != 0) return {};
  CollectiveFigures figures = Assemble(results, rank_count, std::move(fit.clock));
  figures.arrivals.compute_per_step_ns = std::move(steps.compute_per_step_ns);
  figures.arrivals.worst_steps = std::move(steps.worst_steps);
  figures.arrivals.stragglers = std::move(steps.stragglers);
  figures.steps_analyzed = true;
  return figures;
}

}  // namespace prof::analyzer
