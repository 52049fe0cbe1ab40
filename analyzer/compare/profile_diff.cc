#include "analyzer/compare/profile_diff.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "analyzer/compare/step_metrics.h"

namespace prof::analyzer::compare {
namespace {

// The values of `key` in `profile`, or what a run without that metric would have had.
std::vector<double> ValuesOrAbsent(const RunProfile& profile, const MetricKey& key) {
  auto it = profile.values.find(key);
  if (it != profile.values.end()) return it->second;
  const bool ratio = key.family == MetricFamily::kBusBw || key.family == MetricFamily::kGpuUtil;
  return std::vector<double>(profile.step_numbers.size(), ratio ? MissingValue() : 0.0);
}

// Sort groups: whole-step figures (in family order), named times, the rest.
int ImpactGroup(const MetricKey& key) {
  if (key.name.empty()) return 0;
  return UnitOf(key.family) == MetricUnit::kNanoseconds ? 1 : 2;
}

bool MoreImpact(const MetricDiff& a, const MetricDiff& b) {
  const int group_a = ImpactGroup(a.key), group_b = ImpactGroup(b.key);
  if (group_a != group_b) return group_a < group_b;
  if (group_a == 0) return a.key < b.key;
  const double size_a = group_a == 1 ? std::fabs(a.shift.delta) : std::fabs(a.relative);
  const double size_b = group_b == 1 ? std::fabs(b.shift.delta) : std::fabs(b.relative);
  if (size_a != size_b) return size_a > size_b;
  return a.key < b.key;
}

}  // namespace

double RelativeChange(const ShiftEstimate& shift) {
  if (shift.delta == 0) return 0;
  if (shift.base.median == 0) {
    return shift.delta > 0 ? std::numeric_limits<double>::infinity()
                           : -std::numeric_limits<double>::infinity();
  }
  return shift.delta / std::fabs(shift.base.median);
}

std::vector<MetricDiff> DiffProfiles(const RunProfile& base, const RunProfile& candidate,
                                     double confidence) {
  std::set<MetricKey> keys;
  for (const auto& entry : base.values) keys.insert(entry.first);
  for (const auto& entry : candidate.values) keys.insert(entry.first);
  std::vector<MetricDiff> diffs;
  for (const MetricKey& key : keys) {
    MetricDiff diff;
    diff.key = key;
    const bool in_base = base.values.count(key) > 0, in_candidate = candidate.values.count(key) > 0;
    diff.presence = in_base && in_candidate ? Presence::kBoth
                    : in_base               ? Presence::kOnlyBase
                                            : Presence::kOnlyCandidate;
    diff.shift =
        EstimateShift(ValuesOrAbsent(base, key), ValuesOrAbsent(candidate, key), confidence);
    diff.relative = RelativeChange(diff.shift);
    diffs.push_back(std::move(diff));
  }
  std::stable_sort(diffs.begin(), diffs.end(), MoreImpact);
  return diffs;
}

}  // namespace prof::analyzer::compare
