#include "analyzer/job/rank_distributions.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "analyzer/job/quantile.h"

namespace prof::analyzer {

MetricDistribution Distribution(std::string name, std::string key, bool time,
                                std::vector<double> values, const std::vector<bool>& present) {
  MetricDistribution metric;
  metric.name = std::move(name);
  metric.key = std::move(key);
  metric.time = time;
  std::vector<double> shown;
  for (size_t i = 0; i < values.size(); ++i) {
    if (present.empty() || present[i]) shown.push_back(values[i]);
  }
  metric.ranks = shown.size();
  metric.values = std::move(values);
  if (shown.empty()) return metric;
  metric.min = *std::min_element(shown.begin(), shown.end());
  metric.max = *std::max_element(shown.begin(), shown.end());
  metric.p50 = Quantile(shown, 0.5);
  metric.p90 = Quantile(shown, 0.9);
  for (double& value : shown) value = std::abs(value - metric.p50);
  const double limit = std::max(3 * 1.4826 * Quantile(shown, 0.5), 0.01 * std::abs(metric.p50));
  for (uint32_t i = 0; i < metric.values.size(); ++i) {
    if ((present.empty() || present[i]) && std::abs(metric.values[i] - metric.p50) > limit) {
      metric.outliers.push_back(i);
    }
  }
  std::stable_sort(metric.outliers.begin(), metric.outliers.end(), [&](uint32_t a, uint32_t b) {
    return std::abs(metric.values[a] - metric.p50) > std::abs(metric.values[b] - metric.p50);
  });
  return metric;
}

}  // namespace prof::analyzer
