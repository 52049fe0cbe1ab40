#include "analyzer/job/straggler_analysis.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analyzer/job/quantile.h"

namespace prof::analyzer {

bool Analyzable(const MatchedCollective& collective, const ClockFit& clock) {
  if (!collective.complete || !collective.n_to_n || collective.arrivals.size() < 2) return false;
  for (const Arrival& arrival : collective.arrivals) {
    if (!clock.ranks[arrival.rank_index].fitted) return false;
  }
  return true;
}

CollectiveWaits WaitsOf(const MatchedCollective& collective, const ClockFit& clock) {
  std::vector<std::pair<double, uint32_t>> enters;  // (aligned enter, rank index)
  for (const Arrival& arrival : collective.arrivals) {
    enters.push_back({clock.Align(arrival.rank_index, arrival.enter_ns), arrival.rank_index});
  }
  std::sort(enters.begin(), enters.end(), [](const auto& a, const auto& b) {
    return a.first < b.first ||
           (a.first == b.first && a.second > b.second);  // ties: lowest rank last
  });
  CollectiveWaits waits;
  const auto [last_enter, last_rank] = enters.back();
  waits.last_rank = last_rank;
  for (const auto& [enter, rank] : enters) {
    waits.waits.push_back({rank, last_enter - enter});
    waits.waited_ns += last_enter - enter;
  }
  waits.lateness_ns = last_enter - enters[enters.size() - 2].first;
  waits.skew_ns = last_enter - enters.front().first;
  return waits;
}

void AddLastArrival(const CollectiveWaits& waits, LastArrival* entry) {
  ++entry->times_last;
  entry->wait_caused_ns += waits.waited_ns;
  entry->max_lateness_ns = std::max(entry->max_lateness_ns, waits.lateness_ns);
}

void CommunicatorTally::Add(const MatchedCollective& collective, const CollectiveWaits& waits) {
  figures.comm_hash = collective.comm_hash;
  figures.ranks = std::max(figures.ranks, collective.arrivals.size());
  skews.push_back(waits.skew_ns);
  figures.waited_ns += waits.waited_ns;
  ++figures.collectives;
  ++last_counts[waits.last_rank];
}

CommunicatorArrivals CommunicatorTally::Finish() {
  figures.skew_p50_ns = Quantile(skews, 0.5);
  figures.skew_p99_ns = Quantile(skews, 0.99);
  for (const auto& [rank, count] : last_counts) {
    if (count <= figures.most_often_count) continue;
    figures.most_often_last = rank;
    figures.most_often_count = count;
  }
  return figures;
}

void SortLastArrivals(std::vector<LastArrival>* last_arrivals) {
  std::stable_sort(last_arrivals->begin(), last_arrivals->end(),
                   [](const LastArrival& a, const LastArrival& b) {
                     return a.wait_caused_ns > b.wait_caused_ns ||
                            (a.wait_caused_ns == b.wait_caused_ns && a.times_last > b.times_last);
                   });
}

void SortCommunicators(std::vector<CommunicatorArrivals>* communicators) {
  std::stable_sort(communicators->begin(), communicators->end(),
                   [](const CommunicatorArrivals& a, const CommunicatorArrivals& b) {
                     return a.waited_ns > b.waited_ns;
                   });
}

StragglerAnalysis AnalyzeArrivals(const CollectiveMatch& match, const ClockFit& clock,
                                  size_t rank_count) {
  StragglerAnalysis analysis;
  analysis.waited_ns.assign(rank_count, 0);
  std::vector<LastArrival> last(rank_count);
  for (uint32_t rank = 0; rank < last.size(); ++rank) last[rank].rank_index = rank;
  std::map<uint64_t, CommunicatorTally> communicators;
  for (const MatchedCollective& collective : match.collectives) {
    if (!Analyzable(collective, clock)) continue;
    const CollectiveWaits waits = WaitsOf(collective, clock);
    for (const auto& [rank, waited] : waits.waits) analysis.waited_ns[rank] += waited;
    AddLastArrival(waits, &last[waits.last_rank]);
    communicators[collective.comm_hash].Add(collective, waits);
    ++analysis.analyzed_collectives;
  }
  for (const LastArrival& entry : last) {
    if (entry.times_last > 0) analysis.last_arrivals.push_back(entry);
  }
  SortLastArrivals(&analysis.last_arrivals);
  for (auto& [hash, tally] : communicators) analysis.communicators.push_back(tally.Finish());
  SortCommunicators(&analysis.communicators);
  return analysis;
}

double ComputePerStep(const std::vector<StepRecord>& steps) {
  double compute_sum = 0, step_count = 0;
  for (const StepRecord& step : steps) {
    compute_sum += step.ComputeNs();
    step_count += 1;
  }
  return step_count ? compute_sum / step_count : 0;
}

StepStraggler AnalyzeStep(int64_t number, const std::vector<std::pair<uint32_t, double>>& computes,
                          std::vector<double>* excesses) {
  std::vector<double> values;
  for (const auto& entry : computes) values.push_back(entry.second);
  const double median = Quantile(values, 0.5);
  StepStraggler slowest{number, computes.front().first, computes.front().second - median, median,
                        computes.size()};
  for (const auto& [rank, compute] : computes) {
    const double excess = compute - median;
    if (excess > slowest.excess_ns) slowest = {number, rank, excess, median, computes.size()};
    excesses->push_back(excess);
  }
  return slowest;
}

void AddExcess(int64_t number, double excess, StragglerEntry* entry) {
  entry->excess_ns += excess;
  if (excess <= entry->worst_excess_ns) return;
  entry->worst_excess_ns = excess;
  entry->worst_step = number;
}

void SortSteps(StragglerAnalysis* analysis) {
  std::stable_sort(
      analysis->worst_steps.begin(), analysis->worst_steps.end(),
      [](const StepStraggler& a, const StepStraggler& b) { return a.excess_ns > b.excess_ns; });
  std::stable_sort(
      analysis->stragglers.begin(), analysis->stragglers.end(),
      [](const StragglerEntry& a, const StragglerEntry& b) { return a.excess_ns > b.excess_ns; });
}

// Per step number: the slowest rank by compute over the median; the leaderboard.
void AnalyzeSteps(const std::vector<const CollectiveTable*>& ranks, StragglerAnalysis* analysis) {
  std::map<int64_t, std::vector<std::pair<uint32_t, double>>> steps;  // step -> (rank, compute)
  for (uint32_t rank = 0; rank < ranks.size(); ++rank) {
    for (const StepRecord& step : ranks[rank]->steps)
      steps[step.number].push_back({rank, static_cast<double>(step.ComputeNs())});
    analysis->compute_per_step_ns.push_back(ComputePerStep(ranks[rank]->steps));
  }
  std::vector<StragglerEntry> board(ranks.size());
  for (uint32_t rank = 0; rank < ranks.size(); ++rank) board[rank].rank_index = rank;
  std::vector<double> excesses;
  for (const auto& [number, computes] : steps) {
    if (computes.size() < 2) continue;
    excesses.clear();
    const StepStraggler slowest = AnalyzeStep(number, computes, &excesses);
    for (size_t i = 0; i < computes.size(); ++i) {
      if (excesses[i] > 0) AddExcess(number, excesses[i], &board[computes[i].first]);
    }
    ++board[slowest.rank_index].steps_slowest;
    analysis->worst_steps.push_back(slowest);
  }
  for (const StragglerEntry& entry : board) {
    if (entry.excess_ns > 0) analysis->stragglers.push_back(entry);
  }
  SortSteps(analysis);
}

StragglerAnalysis AnalyzeStragglers(const CollectiveMatch& match, const ClockFit& clock,
                                    const std::vector<const CollectiveTable*>& ranks) {
  StragglerAnalysis analysis = AnalyzeArrivals(match, clock, ranks.size());
  AnalyzeSteps(ranks, &analysis);
  return analysis;
}

}  // namespace prof::analyzer
