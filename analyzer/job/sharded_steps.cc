#include "analyzer/job/sharded_steps.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "analyzer/job/sharded_clock_fit.h"
#include "analyzer/job/sharded_collectives.h"

namespace prof::analyzer {
namespace {

// One rank's step (its `position`-th), for the owner of its number; or that step's
// excess over the median, for the rank's fitter.
struct WireStep {
  int64_t number = 0;
  uint32_t index = 0;
  uint32_t position = 0;
  double value = 0;  // compute, or excess
};

struct WireValue {
  uint32_t index = 0;
  double value = 0;
};

bool NumberFirst(const WireStep& a, const WireStep& b) {
  return std::tie(a.number, a.index, a.position) < std::tie(b.number, b.index, b.position);
}

bool RankFirst(const WireStep& a, const WireStep& b) {
  return std::tie(a.index, a.number, a.position) < std::tie(b.index, b.number, b.position);
}

// A step number's owner: spread as communicators are.
int StepOwner(int64_t number, int processes) {
  return CommunicatorOwner(static_cast<uint64_t>(number) ^ 0x57E95ull, processes);
}

// The owner's step numbers, in order: their slowest ranks (appended to `slowest`); returns
// the excesses this process received as a fitter.
std::vector<WireStep> StepsOwned(Exchange& exchange, std::vector<WireStep> steps,
                                 std::vector<StepStraggler>* slowest) {
  std::sort(steps.begin(), steps.end(), NumberFirst);  // as AnalyzeSteps meets them
  std::vector<std::vector<WireStep>> excesses(exchange.Size());
  std::vector<std::pair<uint32_t, double>> computes;
  std::vector<double> excess;
  for (size_t i = 0; i < steps.size();) {
    const size_t first = i;
    computes.clear();
    for (; i < steps.size() && steps[i].number == steps[first].number; ++i)
      computes.push_back({steps[i].index, steps[i].value});
    if (computes.size() < 2) continue;
    excess.clear();
    slowest->push_back(AnalyzeStep(steps[first].number, computes, &excess));
    for (size_t k = 0; k < computes.size(); ++k) {
      if (excess[k] <= 0) continue;
      const WireStep& step = steps[first + k];
      excesses[RankFitter(step.index, exchange.Size())].push_back(
          {step.number, step.index, step.position, excess[k]});
    }
  }
  return RouteRecords(exchange, std::move(excesses));
}

// A fitter's ranks' leaderboard entries, each rank's excesses added in step-number order.
std::vector<StragglerEntry> FoldExcesses(std::vector<WireStep> excesses) {
  std::sort(excesses.begin(), excesses.end(), RankFirst);
  std::vector<StragglerEntry> board;
  for (const WireStep& step : excesses) {
    if (board.empty() || board.back().rank_index != step.index) {
      board.emplace_back();
      board.back().rank_index = step.index;
    }
    AddExcess(step.number, step.value, &board.back());
  }
  return board;
}

}  // namespace

void AnalyzeStepsSharded(Exchange& exchange, const std::vector<StepShard>& ranks, size_t rank_count,
                         StragglerAnalysis* analysis) {
  const int size = exchange.Size();
  std::vector<WireValue> computes;  // per rank, for process 0
  std::vector<std::vector<WireStep>> outgoing(size);
  for (const StepShard& rank : ranks) {
    computes.push_back({rank.index, ComputePerStep(*rank.steps)});
    for (uint32_t position = 0; position < rank.steps->size(); ++position) {
      const StepRecord& step = (*rank.steps)[position];
      outgoing[StepOwner(step.number, size)].push_back(
          {step.number, rank.index, position, static_cast<double>(step.ComputeNs())});
    }
  }
  std::vector<StepStraggler> slowest;
  const std::vector<StragglerEntry> board =
      FoldExcesses(StepsOwned(exchange, RouteRecords(exchange, std::move(outgoing)), &slowest));
  std::vector<std::string> blobs(size);
  PutRecords(computes, &blobs[0]);
  PutRecords(slowest, &blobs[0]);
  PutRecords(board, &blobs[0]);
  const std::vector<std::string> results = exchange.AllToAll(std::move(blobs));
  if (exchange.Rank() != 0) return;
  std::vector<WireValue> all_computes;
  std::vector<StragglerEntry> all_board;
  for (const std::string& blob : results) {
    size_t at = 0;
    GetRecords(blob, &at, &all_computes);
    GetRecords(blob, &at, &analysis->worst_steps);
    GetRecords(blob, &at, &all_board);
  }
  analysis->compute_per_step_ns.assign(rank_count, 0);
  for (const WireValue& value : all_computes)
    analysis->compute_per_step_ns[value.index] = value.value;
  // AnalyzeSteps's orders before its sorts: steps by number, ranks by index.
  std::sort(analysis->worst_steps.begin(), analysis->worst_steps.end(),
            [](const StepStraggler& a, const StepStraggler& b) { return a.step < b.step; });
  std::vector<uint64_t> steps_slowest(rank_count, 0);
  for (const StepStraggler& step : analysis->worst_steps) ++steps_slowest[step.rank_index];
  std::sort(
      all_board.begin(), all_board.end(),
      [](const StragglerEntry& a, const StragglerEntry& b) { return a.rank_index < b.rank_index; });
  for (StragglerEntry& entry : all_board) {
    entry.steps_slowest = steps_slowest[entry.rank_index];
    if (entry.excess_ns > 0) analysis->stragglers.push_back(entry);
  }
  SortSteps(analysis);
}

}  // namespace prof::analyzer
