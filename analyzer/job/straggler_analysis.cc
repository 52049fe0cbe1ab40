#include "analyzer/job/straggler_analysis.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analyzer/job/quantile.h"

namespace prof::analyzer {
namespace {

bool Analyzable(const MatchedCollective& collective, const ClockFit& clock) {
  if (!collective.complete || !collective.n_to_n || collective.arrivals.size() < 2) return false;
  for (const Arrival& arrival : collective.arrivals) {
    if (!clock.ranks[arrival.rank_index].fitted) return false;
  }
  return true;
}

struct CommunicatorState {
  CommunicatorArrivals figures;
  std::vector<double> skews;
  std::map<uint32_t, uint64_t> last_counts;
};

// One collective: its last arrival, the waits, the skew.
void AddCollective(const MatchedCollective& collective, const ClockFit& clock,
                   StragglerAnalysis* analysis, std::vector<LastArrival>* last,
                   CommunicatorState* communicator) {
  std::vector<std::pair<double, uint32_t>> enters;  // (aligned enter, rank index)
  for (const Arrival& arrival : collective.arrivals) {
    enters.push_back({clock.Align(arrival.rank_index, arrival.enter_ns), arrival.rank_index});
  }
  std::sort(enters.begin(), enters.end(), [](const auto& a, const auto& b) {
    return a.first < b.first ||
           (a.first == b.first && a.second > b.second);  // ties: lowest rank last
  });
  const auto [last_enter, last_rank] = enters.back();
  double waited = 0;
  for (const auto& [enter, rank] : enters) {
    analysis->waited_ns[rank] += last_enter - enter;
    waited += last_enter - enter;
  }
  LastArrival& entry = (*last)[last_rank];
  ++entry.times_last;
  entry.wait_caused_ns += waited;
  entry.max_lateness_ns =
      std::max(entry.max_lateness_ns, last_enter - enters[enters.size() - 2].first);
  communicator->skews.push_back(last_enter - enters.front().first);
  communicator->figures.waited_ns += waited;
  ++communicator->figures.collectives;
  ++communicator->last_counts[last_rank];
  ++analysis->analyzed_collectives;
}

void AnalyzeArrivals(const CollectiveMatch& match, const ClockFit& clock,
                     StragglerAnalysis* analysis) {
  std::vector<LastArrival> last(analysis->waited_ns.size());
  for (uint32_t rank = 0; rank < last.size(); ++rank) last[rank].rank_index = rank;
  std::map<uint64_t, CommunicatorState> communicators;
  for (const MatchedCollective& collective : match.collectives) {
    if (!Analyzable(collective, clock)) continue;
    CommunicatorState& state = communicators[collective.comm_hash];
    state.figures.comm_hash = collective.comm_hash;
    state.figures.ranks = std::max(state.figures.ranks, collective.arrivals.size());
    AddCollective(collective, clock, analysis, &last, &state);
  }
  for (const LastArrival& entry : last) {
    if (entry.times_last > 0) analysis->last_arrivals.push_back(entry);
  }
  std::stable_sort(analysis->last_arrivals.begin(), analysis->last_arrivals.end(),
                   [](const LastArrival& a, const LastArrival& b) {
                     return a.wait_caused_ns > b.wait_caused_ns ||
                            (a.wait_caused_ns == b.wait_caused_ns && a.times_last > b.times_last);
                   });
  for (auto& [hash, state] : communicators) {
    state.figures.skew_p50_ns = Quantile(state.skews, 0.5);
    state.figures.skew_p99_ns = Quantile(state.skews, 0.99);
    for (const auto& [rank, count] : state.last_counts) {
      if (count <= state.figures.most_often_count) continue;
      state.figures.most_often_last = rank;
      state.figures.most_often_count = count;
    }
    analysis->communicators.push_back(state.figures);
  }
  std::stable_sort(analysis->communicators.begin(), analysis->communicators.end(),
                   [](const CommunicatorArrivals& a, const CommunicatorArrivals& b) {
                     return a.waited_ns > b.waited_ns;
                   });
}

// Per step number: the slowest rank by compute over the median; the leaderboard.
void AnalyzeSteps(const std::vector<const CollectiveTable*>& ranks, StragglerAnalysis* analysis) {
  std::map<int64_t, std::vector<std::pair<uint32_t, double>>> steps;  // step -> (rank, compute)
  std::vector<double> compute_sum(ranks.size(), 0), step_count(ranks.size(), 0);
  for (uint32_t rank = 0; rank < ranks.size(); ++rank) {
    for (const StepRecord& step : ranks[rank]->steps) {
      steps[step.number].push_back({rank, static_cast<double>(step.ComputeNs())});
      compute_sum[rank] += step.ComputeNs();
      step_count[rank] += 1;
    }
  }
  std::vector<StragglerEntry> board(ranks.size());
  for (uint32_t rank = 0; rank < ranks.size(); ++rank) {
    board[rank].rank_index = rank;
    analysis->compute_per_step_ns.push_back(step_count[rank] ? compute_sum[rank] / step_count[rank]
                                                             : 0);
  }
  for (const auto& [number, computes] : steps) {
    if (computes.size() < 2) continue;
    std::vector<double> values;
    for (const auto& entry : computes) values.push_back(entry.second);
    const double median = Quantile(values, 0.5);
    StepStraggler slowest{number, computes.front().first, computes.front().second - median, median,
                          computes.size()};
    for (const auto& [rank, compute] : computes) {
      const double excess = compute - median;
      if (excess > slowest.excess_ns) slowest = {number, rank, excess, median, computes.size()};
      if (excess <= 0) continue;
      StragglerEntry& entry = board[rank];
      entry.excess_ns += excess;
      if (excess <= entry.worst_excess_ns) continue;
      entry.worst_excess_ns = excess;
      entry.worst_step = number;
    }
    ++board[slowest.rank_index].steps_slowest;
    analysis->worst_steps.push_back(slowest);
  }
  std::stable_sort(
      analysis->worst_steps.begin(), analysis->worst_steps.end(),
      [](const StepStraggler& a, const StepStraggler& b) { return a.excess_ns > b.excess_ns; });
  for (const StragglerEntry& entry : board) {
    if (entry.excess_ns > 0) analysis->stragglers.push_back(entry);
  }
  std::stable_sort(
      analysis->stragglers.begin(), analysis->stragglers.end(),
      [](const StragglerEntry& a, const StragglerEntry& b) { return a.excess_ns > b.excess_ns; });
}

}  // namespace

StragglerAnalysis AnalyzeStragglers(const CollectiveMatch& match, const ClockFit& clock,
                                    const std::vector<const CollectiveTable*>& ranks) {
  StragglerAnalysis analysis;
  analysis.waited_ns.assign(ranks.size(), 0);
  AnalyzeArrivals(match, clock, &analysis);
  AnalyzeSteps(ranks, &analysis);
  return analysis;
}

}  // namespace prof::analyzer
