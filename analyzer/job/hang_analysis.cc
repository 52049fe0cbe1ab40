#include "analyzer/job/hang_analysis.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/job/collective_match.h"

namespace prof::analyzer {
namespace {

// One rank on one communicator: its last sequence entered, the last it completed, and the
// first it entered without completing (0: none).
struct Frontier {
  int64_t entered = 0;
  int64_t completed = 0;
  int64_t first_unfinished = 0;
  int32_t first_unfinished_state = kHost;  // DeviceState
};

struct Communicator {
  int32_t size = 0;
  std::map<uint32_t, Frontier> members;  // by dump index
};

std::map<uint64_t, Communicator> Frontiers(const std::vector<RankDump>& dumps) {
  std::map<uint64_t, Communicator> communicators;
  for (uint32_t index = 0; index < dumps.size(); ++index) {
    for (const CollectiveRecord& record : dumps[index].calls.collectives) {
      if (record.sequence == 0) continue;  // unknown communicator: cannot be matched
      Communicator& communicator = communicators[record.comm_hash];
      communicator.size = std::max(communicator.size, record.rank_count);
      Frontier& frontier = communicator.members[index];
      frontier.entered = std::max(frontier.entered, record.sequence);
      const auto unfinished = dumps[index].unfinished.find({record.comm_hash, record.sequence});
      if (unfinished != dumps[index].unfinished.end()) {
        if (frontier.first_unfinished == 0 || record.sequence < frontier.first_unfinished) {
          frontier.first_unfinished = record.sequence;
          frontier.first_unfinished_state = unfinished->second;
        }
      } else {
        frontier.completed = std::max(frontier.completed, record.sequence);
      }
    }
  }
  return communicators;
}

int64_t WaitedSequence(const Communicator& communicator) {
  int64_t waited = 0;
  for (const auto& [index, frontier] : communicator.members) {
    if (frontier.first_unfinished > 0 && (waited == 0 || frontier.first_unfinished < waited)) {
      waited = frontier.first_unfinished;
    }
  }
  return waited;
}

std::string StateOf(const Frontier& frontier, int64_t waited) {
  const std::string first = "#" + std::to_string(frontier.first_unfinished);
  if (frontier.first_unfinished > 0) {
    switch (frontier.first_unfinished_state) {
      case kEnqueued: return "enqueued " + first + ", not started on the GPU";
      case kStarted: return "started " + first + " on the GPU, not completed";
      default: return "waiting in " + first;
    }
  }
  if (waited > 0 && frontier.entered < waited) return "never entered #" + std::to_string(waited);
  return "completed #" + std::to_string(frontier.completed);
}

std::vector<RankGroup> GroupRanks(const Communicator& communicator, int64_t waited,
                                  const std::vector<RankDump>& dumps) {
  std::map<std::tuple<std::string, int64_t, int64_t>, std::vector<int32_t>> by_state;
  for (const auto& [index, frontier] : communicator.members) {
    by_state[{StateOf(frontier, waited), frontier.entered, frontier.completed}].push_back(
        dumps[index].rank);
  }
  std::vector<RankGroup> groups;
  for (auto& [key, ranks] : by_state) {
    std::sort(ranks.begin(), ranks.end());
    groups.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::move(ranks)});
  }
  std::stable_sort(groups.begin(), groups.end(), [](const RankGroup& a, const RankGroup& b) {
    return a.ranks.size() > b.ranks.size();
  });
  return groups;
}

Culprit CulpritOf(const RankDump& dump, uint64_t comm, int64_t seq, int32_t operation,
                  int64_t entered) {
  Culprit culprit;
  culprit.rank = dump.rank;
  culprit.comm = comm;
  culprit.seq = seq;
  culprit.operation = operation;
  culprit.last_entered = entered;
  culprit.last_step = dump.last_step;
  culprit.last_call = dump.last_call;
  culprit.last = dump.last;
  culprit.state = "never entered";
  return culprit;
}

std::vector<int32_t> MissingRanks(const std::vector<RankDump>& dumps, int32_t world_size) {
  std::vector<bool> present(std::max(world_size, 0), false);
  for (const RankDump& dump : dumps) {
    if (dump.rank >= 0 && dump.rank < world_size) present[dump.rank] = true;
  }
  std::vector<int32_t> missing;
  for (int32_t rank = 0; rank < world_size; ++rank) {
    if (!present[rank]) missing.push_back(rank);
  }
  return missing;
}

void AddCulprits(const Communicator& communicator, const CommunicatorState& state,
                 const std::vector<RankDump>& dumps, HangReport* report) {
  if (state.waited_seq == 0) return;
  for (const auto& [index, frontier] : communicator.members) {
    if (frontier.entered >= state.waited_seq) continue;
    report->culprits.push_back(CulpritOf(dumps[index], state.comm, state.waited_seq,
                                         state.waited_operation, frontier.entered));
  }
  // The members without a dump are known only for a communicator of the whole job.
  const bool whole_job = report->world_size > 0 && state.size == report->world_size;
  if (!whole_job || communicator.members.size() >= static_cast<size_t>(state.size)) return;
  for (int32_t rank : report->missing_ranks) {
    Culprit culprit;
    culprit.rank = rank;
    culprit.comm = state.comm;
    culprit.seq = state.waited_seq;
    culprit.operation = state.waited_operation;
    culprit.dump_missing = true;
    culprit.state = "no dump";
    report->culprits.push_back(culprit);
  }
}

// A hang on the GPU (see the header): only where every member with a dump entered the
// collective waited in.
void AddDeviceCulprits(const Communicator& communicator, const CommunicatorState& state,
                       const std::vector<RankDump>& dumps, HangReport* report) {
  if (state.waited_seq == 0) return;
  std::vector<std::pair<uint32_t, const Frontier*>> unfinished, enqueued;
  bool completed_elsewhere = false, started_elsewhere = false;
  for (const auto& [index, frontier] : communicator.members) {
    if (frontier.entered < state.waited_seq) return;  // a host-side culprit, named already
    if (frontier.first_unfinished != state.waited_seq) {
      completed_elsewhere = true;
      continue;
    }
    unfinished.push_back({index, &frontier});
    if (frontier.first_unfinished_state == kEnqueued) enqueued.push_back({index, &frontier});
    if (frontier.first_unfinished_state == kStarted) started_elsewhere = true;
  }
  // Nobody completed it: the ones whose copy never started hold up those waiting in theirs.
  if (!completed_elsewhere) {
    if (!started_elsewhere) return;
    unfinished = enqueued;
  }
  for (const auto& [index, frontier] : unfinished) {
    Culprit culprit = CulpritOf(dumps[index], state.comm, state.waited_seq, state.waited_operation,
                                frontier->entered);
    culprit.state = UnfinishedStateText(frontier->first_unfinished_state);
    report->culprits.push_back(culprit);
  }
}

std::vector<MismatchedCollective> Mismatches(const CollectiveMatch& match,
                                             const std::vector<RankDump>& dumps) {
  std::vector<MismatchedCollective> mismatches;
  for (const MatchedCollective& collective : match.collectives) {
    if (!collective.mismatched) continue;
    MismatchedCollective mismatch{collective.comm_hash, collective.sequence, {}};
    for (const Arrival& arrival : collective.arrivals) {
      auto same = [&](const MismatchedCollective::Variant& v) {
        return v.operation == arrival.operation && v.bytes == arrival.bytes;
      };
      auto it = std::find_if(mismatch.variants.begin(), mismatch.variants.end(), same);
      if (it == mismatch.variants.end()) {
        it = mismatch.variants.insert(mismatch.variants.end(),
                                      {arrival.operation, arrival.bytes, {}});
      }
      it->ranks.push_back(dumps[arrival.rank_index].rank);
    }
    mismatches.push_back(std::move(mismatch));
  }
  return mismatches;
}

}  // namespace

void FlightLosses::Add(const FlightLosses& other) {
  calls_overwritten += other.calls_overwritten;
  calls_torn += other.calls_torn;
  host_overwritten += other.host_overwritten;
  host_torn += other.host_torn;
  host_threads_refused += other.host_threads_refused;
}

bool FlightLosses::Any() const {
  return calls_overwritten + calls_torn + host_overwritten + host_torn + host_threads_refused > 0;
}

HangReport AnalyzeHang(std::vector<RankDump> dumps) {
  std::sort(dumps.begin(), dumps.end(),
            [](const RankDump& a, const RankDump& b) { return a.rank < b.rank; });
  HangReport report;
  report.dumps = dumps.size();
  for (const RankDump& dump : dumps) {
    report.world_size = std::max(report.world_size, dump.world_size);
    report.losses.Add(dump.losses);
  }
  report.missing_ranks = MissingRanks(dumps, report.world_size);
  std::vector<const CollectiveTable*> tables;
  for (const RankDump& dump : dumps) tables.push_back(&dump.calls);
  const CollectiveMatch match = MatchCollectives(tables);
  std::map<std::pair<uint64_t, int64_t>, int32_t> operations;
  for (const MatchedCollective& c : match.collectives)
    operations[{c.comm_hash, c.sequence}] = c.operation;
  for (const auto& [comm, communicator] : Frontiers(dumps)) {
    CommunicatorState state;
    state.comm = comm;
    state.size = communicator.size;
    state.waited_seq = WaitedSequence(communicator);
    if (state.waited_seq > 0) state.waited_operation = operations[{comm, state.waited_seq}];
    state.groups = GroupRanks(communicator, state.waited_seq, dumps);
    AddCulprits(communicator, state, dumps, &report);
    AddDeviceCulprits(communicator, state, dumps, &report);
    report.communicators.push_back(std::move(state));
  }
  std::stable_sort(report.communicators.begin(), report.communicators.end(),
                   [](const CommunicatorState& a, const CommunicatorState& b) {
                     return (a.waited_seq > 0) > (b.waited_seq > 0);
                   });
  report.mismatches = Mismatches(match, dumps);
  return report;
}

const char* UnfinishedStateText(int32_t device_state) {
  switch (device_state) {
    case kEnqueued: return "enqueued, not completed";
    case kStarted: return "started, not completed";
    case kCompleted: return "completed";
    default: return "entered, not returned or failed";
  }
}

std::string RankRanges(const std::vector<int32_t>& ranks, size_t max_ranges) {
  std::vector<std::pair<int32_t, int32_t>> ranges;
  for (int32_t rank : ranks) {
    if (!ranges.empty() && ranges.back().second + 1 == rank) {
      ranges.back().second = rank;
    } else {
      ranges.push_back({rank, rank});
    }
  }
  std::string text;
  for (size_t i = 0; i < ranges.size() && i < max_ranges; ++i) {
    if (i > 0) text += ',';
    text += std::to_string(ranges[i].first);
    if (ranges[i].second != ranges[i].first) text += '-' + std::to_string(ranges[i].second);
  }
  if (ranges.size() > max_ranges)
    text += " ... (+" + std::to_string(ranges.size() - max_ranges) + " more)";
  return text;
}

}  // namespace prof::analyzer
