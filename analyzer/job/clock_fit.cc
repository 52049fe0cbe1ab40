#include "analyzer/job/clock_fit.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "analyzer/job/quantile.h"

namespace prof::analyzer {
namespace {

// A fitted drift beyond this (1000 ppm) is noise over a short span, not a clock: dropped.
constexpr double kMaxDrift = 1e-3;

double Median(std::vector<double> values) { return Quantile(std::move(values), 0.5); }

}  // namespace

RankClock FitRank(const std::vector<ClockSample>& samples) {
  std::vector<double> d;
  for (const ClockSample& sample : samples) d.push_back(sample.d);
  const double median = Median(d);
  for (double& value : d) value = std::abs(value - median);
  const double limit = std::max(5 * Median(d), 1000.0);
  double n = 0, sx = 0, sd = 0;
  for (const ClockSample& sample : samples) {
    if (std::abs(sample.d - median) > limit) continue;
    n += 1;
    sx += sample.x;
    sd += sample.d;
  }
  RankClock clock;
  clock.fitted = true;
  clock.collectives = static_cast<uint64_t>(n);
  clock.pivot_ns = sx / n;
  clock.offset_ns = sd / n;
  double sxx = 0, sxd = 0;
  for (const ClockSample& sample : samples) {
    if (std::abs(sample.d - median) > limit) continue;
    sxx += (sample.x - clock.pivot_ns) * (sample.x - clock.pivot_ns);
    sxd += (sample.x - clock.pivot_ns) * (sample.d - clock.offset_ns);
  }
  if (n >= 3 && sxx > 0 && std::abs(sxd / sxx) < kMaxDrift) clock.drift = sxd / sxx;
  return clock;
}

namespace {

// The median of the fitted members' aligned ends; false when none is fitted.
bool ReferenceEnd(const MatchedCollective& collective, const ClockFit& fit, double* end) {
  std::vector<double> ends;
  for (const Arrival& arrival : collective.arrivals) {
    if (fit.ranks[arrival.rank_index].fitted)
      ends.push_back(fit.Align(arrival.rank_index, arrival.end_ns));
  }
  if (ends.empty()) return false;
  *end = Median(std::move(ends));
  return true;
}

}  // namespace

bool UsableForClocks(const MatchedCollective& collective) {
  return collective.complete && collective.n_to_n && collective.arrivals.size() >= 2;
}

void AddClockSamples(const MatchedCollective& collective, const ClockFit& fit,
                     std::vector<std::pair<uint32_t, ClockSample>>* samples) {
  double end = 0;
  if (!ReferenceEnd(collective, fit, &end)) return;
  for (const Arrival& arrival : collective.arrivals) {
    if (fit.ranks[arrival.rank_index].fitted) continue;
    samples->push_back(
        {arrival.rank_index, {static_cast<double>(arrival.end_ns), arrival.end_ns - end}});
  }
}

CollectiveCheck CheckCollective(const MatchedCollective& collective, const ClockFit& fit) {
  CollectiveCheck check;
  double end = 0;
  if (!ReferenceEnd(collective, fit, &end)) return check;
  double last_enter = -1e300, first_end = 1e300;
  for (const Arrival& arrival : collective.arrivals) {
    if (!fit.ranks[arrival.rank_index].fitted) continue;
    check.residuals.push_back(
        {arrival.rank_index, std::abs(fit.Align(arrival.rank_index, arrival.end_ns) - end)});
    last_enter = std::max(last_enter, fit.Align(arrival.rank_index, arrival.enter_ns));
    first_end = std::min(first_end, fit.Align(arrival.rank_index, arrival.end_ns));
  }
  check.checked = true;
  check.violation = first_end < last_enter - kClockViolationToleranceNs;
  return check;
}

namespace {

// One breadth-first round: fits every unfitted rank that shares a collective with a
// fitted one. False when no rank could be fitted.
bool FitRound(const std::vector<const MatchedCollective*>& usable, ClockFit* fit) {
  std::vector<std::pair<uint32_t, ClockSample>> found;
  for (const MatchedCollective* collective : usable) AddClockSamples(*collective, *fit, &found);
  std::vector<std::vector<ClockSample>> samples(fit->ranks.size());
  for (const auto& [rank, sample] : found) samples[rank].push_back(sample);
  bool progress = false;
  for (size_t rank = 0; rank < samples.size(); ++rank) {
    if (samples[rank].empty()) continue;
    fit->ranks[rank] = FitRank(samples[rank]);
    progress = true;
  }
  return progress;
}

// Residuals of the aligned ends, and clock violations.
void CheckFit(const std::vector<const MatchedCollective*>& usable, ClockFit* fit) {
  std::vector<double> all;
  std::vector<std::vector<double>> per_rank(fit->ranks.size());
  for (const MatchedCollective* collective : usable) {
    const CollectiveCheck check = CheckCollective(*collective, *fit);
    if (!check.checked) continue;
    for (const auto& [rank, residual] : check.residuals) {
      all.push_back(residual);
      per_rank[rank].push_back(residual);
    }
    ++fit->checked;
    if (check.violation) ++fit->violations;
  }
  for (size_t rank = 0; rank < per_rank.size(); ++rank)
    fit->ranks[rank].residual_ns = Median(per_rank[rank]);
  fit->residual_p50_ns = Quantile(all, 0.5);
  fit->residual_p99_ns = Quantile(all, 0.99);
  fit->residual_max_ns = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
}

}  // namespace

double ClockFit::Align(uint32_t rank_index, double t_ns) const {
  const RankClock& clock = ranks[rank_index];
  return t_ns - (clock.offset_ns + clock.drift * (t_ns - clock.pivot_ns));
}

ClockFit FitClocks(const CollectiveMatch& match, size_t rank_count) {
  ClockFit fit;
  fit.ranks.resize(rank_count);
  std::vector<const MatchedCollective*> usable;
  uint32_t reference = static_cast<uint32_t>(rank_count);
  for (const MatchedCollective& collective : match.collectives) {
    if (!UsableForClocks(collective)) continue;
    usable.push_back(&collective);
    reference = std::min(reference, collective.arrivals.front().rank_index);
  }
  fit.fitted_collectives = usable.size();
  if (usable.empty()) return fit;
  fit.reference = reference;
  fit.ranks[reference].fitted = true;
  while (FitRound(usable, &fit)) {
  }
  CheckFit(usable, &fit);
  return fit;
}

}  // namespace prof::analyzer
