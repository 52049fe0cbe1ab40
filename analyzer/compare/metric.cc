#include "analyzer/compare/metric.h"

#include "absl/strings/str_cat.h"

namespace prof::analyzer::compare {
namespace {

struct FamilyInfo {
  MetricFamily family;
  const char* name;
  MetricUnit unit;
};

constexpr FamilyInfo kFamilies[] = {
    {MetricFamily::kStepTime, "step_time", MetricUnit::kNanoseconds},
    {MetricFamily::kGpuTime, "gpu_time", MetricUnit::kNanoseconds},
    {MetricFamily::kGpuUtil, "gpu_util", MetricUnit::kPercent},
    {MetricFamily::kBusBw, "busbw", MetricUnit::kGigabytesPerSecond},
    {MetricFamily::kKernel, "kernel", MetricUnit::kNanoseconds},
    {MetricFamily::kKernelCalls, "kernel_calls", MetricUnit::kCount},
    {MetricFamily::kApi, "api", MetricUnit::kNanoseconds},
    {MetricFamily::kApiCalls, "api_calls", MetricUnit::kCount},
    {MetricFamily::kOperator, "op", MetricUnit::kNanoseconds},
};

const FamilyInfo& Info(MetricFamily family) {
  for (const FamilyInfo& info : kFamilies) {
    if (info.family == family) return info;
  }
  return kFamilies[0];
}

}  // namespace

const char* FamilyName(MetricFamily family) { return Info(family).name; }

bool ParseFamily(absl::string_view text, MetricFamily* family) {
  for (const FamilyInfo& info : kFamilies) {
    if (text == info.name) {
      *family = info.family;
      return true;
    }
  }
  return false;
}

std::string KnownFamilies() {
  std::string known;
  for (const FamilyInfo& info : kFamilies)
    absl::StrAppend(&known, known.empty() ? "" : ", ", info.name);
  return known;
}

MetricUnit UnitOf(MetricFamily family) { return Info(family).unit; }

bool IsPerName(MetricFamily family) {
  switch (family) {
    case MetricFamily::kKernel:
    case MetricFamily::kKernelCalls:
    case MetricFamily::kApi:
    case MetricFamily::kApiCalls:
    case MetricFamily::kOperator:
    case MetricFamily::kBusBw: return true;
    default: return false;
  }
}

bool HigherIsBetter(MetricFamily family) {
  return family == MetricFamily::kBusBw || family == MetricFamily::kGpuUtil;
}

std::string DisplayName(const MetricKey& key) {
  if (key.name.empty()) return FamilyName(key.family);
  return absl::StrCat(FamilyName(key.family), ":", key.name);
}

}  // namespace prof::analyzer::compare
