#include "analyzer/job/sharded_clock_fit.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "analyzer/job/quantile.h"

namespace prof::analyzer {
namespace {

struct WireSample {
  uint64_t comm_hash = 0;
  int64_t sequence = 0;
  uint32_t index = 0;
  ClockSample sample;
};

struct WireClock {
  uint32_t index = 0;
  RankClock clock;
};

struct WireResidual {
  uint32_t index = 0;
  double residual = 0;
};

struct Usable {
  uint64_t collectives = 0;
  uint32_t reference = 0;  // the lowest first member
};

struct Checked {
  uint64_t checked = 0, violations = 0, residuals = 0;
  double max = 0;
};

// One breadth-first round (clock_fit.cc's FitRound); false when no rank was fitted anywhere.
bool FitRound(Exchange& exchange, const std::vector<const MatchedCollective*>& usable,
              ClockFit* fit) {
  std::vector<std::vector<WireSample>> outgoing(exchange.Size());
  std::vector<std::pair<uint32_t, ClockSample>> found;
  for (const MatchedCollective* collective : usable) {
    found.clear();
    AddClockSamples(*collective, *fit, &found);
    for (const auto& [rank, sample] : found) {
      outgoing[RankFitter(rank, exchange.Size())].push_back(
          {collective->comm_hash, collective->sequence, rank, sample});
    }
  }
  std::vector<WireSample> samples = RouteRecords(exchange, std::move(outgoing));
  SortRankRuns(&samples);
  std::vector<WireClock> fitted;
  std::vector<ClockSample> rank_samples;
  for (size_t i = 0; i < samples.size();) {
    const uint32_t index = samples[i].index;
    rank_samples.clear();
    for (; i < samples.size() && samples[i].index == index; ++i)
      rank_samples.push_back(samples[i].sample);
    fitted.push_back({index, FitRank(rank_samples)});
  }
  std::string mine;
  PutRecords(fitted, &mine);
  bool progress = false;
  for (const std::string& blob : exchange.AllGather(mine)) {
    std::vector<WireClock> clocks;
    size_t at = 0;
    GetRecords(blob, &at, &clocks);
    for (const WireClock& clock : clocks) fit->ranks[clock.index] = clock.clock;
    progress = progress || !clocks.empty();
  }
  return progress;
}

// Residuals and violations (clock_fit.cc's CheckFit): each rank's residual median on its
// fitter, the job's quantiles by search.
void CheckFit(Exchange& exchange, const std::vector<const MatchedCollective*>& usable,
              ShardedFit* out) {
  ClockFit& fit = out->clock;
  std::vector<double> all;
  std::vector<std::vector<WireResidual>> outgoing(exchange.Size());
  Checked mine;
  for (const MatchedCollective* collective : usable) {
    const CollectiveCheck check = CheckCollective(*collective, fit);
    if (!check.checked) continue;
    for (const auto& [rank, residual] : check.residuals) {
      all.push_back(residual);
      outgoing[RankFitter(rank, exchange.Size())].push_back({rank, residual});
    }
    ++mine.checked;
    if (check.violation) ++mine.violations;
  }
  mine.residuals = all.size();
  if (!all.empty()) mine.max = *std::max_element(all.begin(), all.end());
  std::vector<WireResidual> residuals = RouteRecords(exchange, std::move(outgoing));
  std::stable_sort(residuals.begin(), residuals.end(),
                   [](const WireResidual& a, const WireResidual& b) { return a.index < b.index; });
  std::vector<double> values;
  for (size_t i = 0; i < residuals.size();) {
    const uint32_t index = residuals[i].index;
    values.clear();
    for (; i < residuals.size() && residuals[i].index == index; ++i)
      values.push_back(residuals[i].residual);
    out->residuals.push_back({index, Quantile(values, 0.5)});
  }
  uint64_t count = 0;
  for (const Checked& checked : GatherAll(exchange, mine)) {
    fit.checked += checked.checked;
    fit.violations += checked.violations;
    fit.residual_max_ns = std::max(fit.residual_max_ns, checked.max);
    count += checked.residuals;
  }
  if (count == 0) return;
  const std::vector<double> quantiles =
      KthSmallestSharded(exchange, all, {QuantileIndex(count, 0.5), QuantileIndex(count, 0.99)});
  fit.residual_p50_ns = quantiles[0];
  fit.residual_p99_ns = quantiles[1];
}

}  // namespace

std::vector<double> KthSmallestSharded(Exchange& exchange, const std::vector<double>& values,
                                       const std::vector<uint64_t>& ks) {
  // Non-negative doubles order as their bit patterns: search the patterns, one count of
  // "how many are at most this" over all processes per bit.
  std::vector<uint64_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(&bits[i], &values[i], sizeof(double));
  std::sort(bits.begin(), bits.end());
  std::vector<double> found;
  for (const uint64_t k : ks) {
    uint64_t low = 0, high = 0x7FFFFFFFFFFFFFFFull;  // the answer lies in [low, high]
    while (low < high) {
      const uint64_t middle = low + (high - low) / 2;
      const uint64_t mine = std::upper_bound(bits.begin(), bits.end(), middle) - bits.begin();
      uint64_t at_most = 0;
      for (uint64_t count : GatherAll(exchange, mine)) at_most += count;
      if (at_most > k) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    double value = 0;
    std::memcpy(&value, &low, sizeof(value));
    found.push_back(value);
  }
  return found;
}

ShardedFit FitClocksSharded(Exchange& exchange, const CollectiveMatch& owned, size_t rank_count) {
  ShardedFit out;
  ClockFit& fit = out.clock;
  fit.ranks.resize(rank_count);
  std::vector<const MatchedCollective*> usable;
  Usable mine{0, static_cast<uint32_t>(rank_count)};
  for (const MatchedCollective& collective : owned.collectives) {
    if (!UsableForClocks(collective)) continue;
    usable.push_back(&collective);
    mine.reference = std::min(mine.reference, collective.arrivals.front().rank_index);
  }
  mine.collectives = usable.size();
  uint32_t reference = static_cast<uint32_t>(rank_count);
  for (const Usable& theirs : GatherAll(exchange, mine)) {
    fit.fitted_collectives += theirs.collectives;
    reference = std::min(reference, theirs.reference);
  }
  if (fit.fitted_collectives == 0) return out;
  fit.reference = reference;
  fit.ranks[reference].fitted = true;
  while (FitRound(exchange, usable, &fit)) {
  }
  CheckFit(exchange, usable, &out);
  return out;
}

}  // namespace prof::analyzer
