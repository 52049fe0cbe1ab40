#include "analyzer/compare/value_format.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace prof::analyzer::compare {
namespace {

std::string FormatNanoseconds(double ns) {
  const double magnitude = std::fabs(ns);
  if (magnitude >= 1e9) return absl::StrFormat("%.3f s", ns / 1e9);
  if (magnitude >= 1e6) return absl::StrFormat("%.3f ms", ns / 1e6);
  if (magnitude >= 1e3) return absl::StrFormat("%.2f us", ns / 1e3);
  return absl::StrFormat("%.0f ns", ns);
}

std::string SignedPercent(double fraction) {
  if (std::isinf(fraction)) return fraction > 0 ? "new" : "gone";
  return absl::StrFormat("%+.1f%%", fraction * 100);
}

bool InPoints(const MetricKey& key) { return UnitOf(key.family) == MetricUnit::kPercent; }

// A shift expressed like FormatChange: relative to the base median, or in points.
std::string ShiftText(const MetricDiff& diff, double shift) {
  if (InPoints(diff.key)) return absl::StrFormat("%+.1fpt", shift);
  if (diff.shift.base.median == 0)
    return shift == 0 ? "+0.0%" : FormatValue(UnitOf(diff.key.family), shift);
  return SignedPercent(shift / std::fabs(diff.shift.base.median));
}

std::string RelativeNoise(const SampleSummary& summary) {
  if (summary.median == 0) return summary.noise == 0 ? "±0%" : "n/a";
  return absl::StrFormat("±%.1f%%", 100 * summary.noise / std::fabs(summary.median));
}

}  // namespace

std::string FormatValue(MetricUnit unit, double value) {
  switch (unit) {
    case MetricUnit::kNanoseconds: return FormatNanoseconds(value);
    case MetricUnit::kPercent: return absl::StrFormat("%.1f%%", value);
    case MetricUnit::kGigabytesPerSecond: return absl::StrFormat("%.2f GB/s", value);
    case MetricUnit::kCount:
      return value == std::floor(value) ? absl::StrFormat("%.0f", value)
                                        : absl::StrFormat("%.2f", value);
  }
  return "";
}

std::string FormatChange(const MetricDiff& diff) {
  if (InPoints(diff.key)) return absl::StrFormat("%+.1fpt", diff.shift.delta);
  return SignedPercent(diff.relative);
}

std::string FormatInterval(const MetricDiff& diff) {
  return absl::StrFormat("[%s, %s]", ShiftText(diff, diff.shift.ci_low),
                         ShiftText(diff, diff.shift.ci_high));
}

std::string FormatNoise(const MetricDiff& diff) {
  if (InPoints(diff.key)) {
    return absl::StrFormat("±%.1fpt / ±%.1fpt", diff.shift.base.noise, diff.shift.candidate.noise);
  }
  return absl::StrFormat("%s / %s", RelativeNoise(diff.shift.base),
                         RelativeNoise(diff.shift.candidate));
}

namespace {

// A change of the metric (absolute) in the rule's unit, signed.
std::string InRuleUnit(const Rule& rule, const MetricDiff& diff, double change) {
  switch (rule.unit) {
    case ThresholdUnit::kRelative: return ShiftText(diff, change);
    case ThresholdUnit::kPoints: return absl::StrFormat("%+.1fpt", change);
    case ThresholdUnit::kAbsolute: break;
  }
  const std::string value = FormatValue(UnitOf(rule.family), change);
  return change >= 0 ? absl::StrCat("+", value) : value;
}

}  // namespace

std::string FormatRuleChange(const Rule& rule, const ItemResult& item) {
  if (rule.unit == ThresholdUnit::kRelative) return SignedPercent(item.change);
  return InRuleUnit(rule, item.diff, item.diff.shift.delta);
}

std::string FormatRuleInterval(const Rule& rule, const ItemResult& item) {
  return absl::StrFormat("[%s, %s]", InRuleUnit(rule, item.diff, item.diff.shift.ci_low),
                         InRuleUnit(rule, item.diff, item.diff.shift.ci_high));
}

std::string DescribeItem(const Rule& rule, const ItemResult& item) {
  const ShiftEstimate& shift = item.diff.shift;
  return absl::StrFormat("%s %s (base %s, new %s; %.1f%% CI %s; %d vs %d steps; noise %s): %s",
                         DisplayName(item.diff.key), FormatRuleChange(rule, item),
                         FormatValue(UnitOf(item.diff.key.family), shift.base.median),
                         FormatValue(UnitOf(item.diff.key.family), shift.candidate.median),
                         shift.confidence * 100, FormatRuleInterval(rule, item), shift.base.count,
                         shift.candidate.count, FormatNoise(item.diff), item.reason);
}

}  // namespace prof::analyzer::compare
