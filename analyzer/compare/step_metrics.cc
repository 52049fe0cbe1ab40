#include "analyzer/compare/step_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "analyzer/compare/step_bus_bandwidth.h"

namespace prof::analyzer::compare {
namespace {

// Builds series lazily: a name first seen in step 7 still gets zeros for steps 0..6.
class SeriesBuilder {
 public:
  explicit SeriesBuilder(ProcessStepMetrics* out) : out_(out), steps_(out->step_numbers.size()) {}
  // The series of (family, name), one zero per step when new. The reference stays valid
  // (a map's nodes do not move), so callers keep it per name instead of looking it up per
  // record.
  std::vector<double>& Series(MetricFamily family, const std::string& name) {
    std::vector<double>& series = out_->series[MetricKey{family, name}];
    if (series.empty()) series.assign(steps_, 0.0);
    return series;
  }
  void Set(MetricFamily family, const std::string& name, std::vector<double> values) {
    out_->series[MetricKey{family, name}] = std::move(values);
  }

 private:
  ProcessStepMetrics* out_;
  size_t steps_;
};

void AddStepFigures(const AnalysisContext& context, SeriesBuilder* series) {
  const std::vector<HostRange>& ranges = context.model->ranges;
  std::vector<double> durations, kernel_time;
  for (size_t i = 0; i < context.steps.size(); ++i) {
    const HostRange& step = ranges[context.steps[i]];
    durations.push_back(static_cast<double>(step.end_ns - step.start_ns));
    kernel_time.push_back(static_cast<double>(context.kernel_ns_per_step[i]));
  }
  series->Set(MetricFamily::kStepTime, "", std::move(durations));
  series->Set(MetricFamily::kGpuTime, "", std::move(kernel_time));
}

// Length of the part of `merged` (sorted, disjoint) inside [start, end).
uint64_t CoveredLength(const IntervalList& merged, uint64_t start, uint64_t end) {
  auto it =
      std::lower_bound(merged.begin(), merged.end(), start,
                       [](const Interval& interval, uint64_t t) { return interval.end <= t; });
  uint64_t covered = 0;
  for (; it != merged.end() && it->start < end; ++it)
    covered += std::min(it->end, end) - std::max(it->start, start);
  return covered;
}

void AddGpuUtilization(const AnalysisContext& context, WindowCarry* carry, SeriesBuilder* series) {
  IntervalList kernels;
  for (const DeviceActivity& activity : context.model->device_activities) {
    if (activity.kind == DeviceKind::kKernel && activity.end_ns > activity.start_ns) {
      kernels.push_back({activity.start_ns, activity.end_ns});
    }
  }
  // Clipped to the window's steps, with the work carried in from the previous window.
  const IntervalList merged =
      carry->Union(context, UnionKind::kKernels, std::move(kernels)).intervals;
  std::vector<double> percent;
  for (uint32_t index : context.steps) {
    const HostRange& step = context.model->ranges[index];
    const uint64_t length = step.end_ns - step.start_ns;
    percent.push_back(length ? 100.0 * CoveredLength(merged, step.start_ns, step.end_ns) / length
                             : MissingValue());
  }
  series->Set(MetricFamily::kGpuUtil, "", std::move(percent));
}

// The step a device record counts in: where its launching call started (the summaries'
// rule), or where it ran when the call is unknown.
int StepOfActivity(const AnalysisContext& context, const DeviceActivity& activity) {
  const uint64_t time = activity.api_call != kNoIndex
                            ? context.model->api_calls[activity.api_call].start_ns
                            : activity.start_ns;
  return FindStep(context, time);
}

// A name's time and count series, found once per name of the window.
struct TimeAndCount {
  std::vector<double>* time = nullptr;
  std::vector<double>* count = nullptr;
};

void AddKernels(const AnalysisContext& context, const NameOptions& names, SeriesBuilder* series) {
  absl::flat_hash_map<NameId, TimeAndCount> by_name;
  for (const DeviceActivity& activity : context.model->device_activities) {
    if (activity.kind != DeviceKind::kKernel) continue;
    const int step = StepOfActivity(context, activity);
    if (step < 0) continue;
    auto [it, inserted] = by_name.try_emplace(activity.name);
    if (inserted) {
      const std::string name = NormalizeKernelName(context.model->names.Get(activity.name), names);
      it->second = {&series->Series(MetricFamily::kKernel, name),
                    &series->Series(MetricFamily::kKernelCalls, name)};
    }
    (*it->second.time)[step] += static_cast<double>(activity.end_ns - activity.start_ns);
    (*it->second.count)[step] += 1;
  }
}

void AddApiCalls(const AnalysisContext& context, SeriesBuilder* series) {
  absl::flat_hash_map<NameId, TimeAndCount> by_name;
  for (const ApiCall& call : context.model->api_calls) {
    const int step = FindStep(context, call.start_ns);
    if (step < 0) continue;
    auto [it, inserted] = by_name.try_emplace(call.name);
    if (inserted) {
      const std::string name(context.model->names.Get(call.name));
      it->second = {&series->Series(MetricFamily::kApi, name),
                    &series->Series(MetricFamily::kApiCalls, name)};
    }
    (*it->second.time)[step] += static_cast<double>(call.end_ns - call.start_ns);
    (*it->second.count)[step] += 1;
  }
}

void AddOperators(const AnalysisContext& context, SeriesBuilder* series) {
  absl::flat_hash_map<NameId, std::vector<double>*> by_name;
  for (const HostRange& range : context.model->ranges) {
    if (range.type != RangeType::kOperator && range.type != RangeType::kNvtx) continue;
    const int step = FindStep(context, range.start_ns);
    if (step < 0) continue;
    auto [it, inserted] = by_name.try_emplace(range.name);
    if (inserted) {
      it->second = &series->Series(MetricFamily::kOperator,
                                   std::string(context.model->names.Get(range.name)));
    }
    (*it->second)[step] += static_cast<double>(range.end_ns - range.start_ns);
  }
}

}  // namespace

double MissingValue() { return std::numeric_limits<double>::quiet_NaN(); }
bool IsMissing(double value) { return std::isnan(value); }

ProcessStepMetrics ExtractStepMetrics(const AnalysisContext& context, const NameOptions& names,
                                      WindowCarry* carry) {
  WindowCarry no_carry;
  if (carry == nullptr) carry = &no_carry;
  ProcessStepMetrics metrics;
  for (uint32_t index : context.steps)
    metrics.step_numbers.push_back(context.model->ranges[index].step_number);
  if (metrics.step_numbers.empty()) return metrics;
  SeriesBuilder series(&metrics);
  AddStepFigures(context, &series);
  AddGpuUtilization(context, carry, &series);
  AddKernels(context, names, &series);
  AddApiCalls(context, &series);
  AddOperators(context, &series);
  for (auto& [collective, values] : StepBusBandwidth(context)) {
    series.Set(MetricFamily::kBusBw, collective, std::move(values));
  }
  return metrics;
}

}  // namespace prof::analyzer::compare
