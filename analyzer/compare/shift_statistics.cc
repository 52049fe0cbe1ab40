#include "analyzer/compare/shift_statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

namespace prof::analyzer::compare {
namespace {

constexpr size_t kMaxExactPairs = 40000;
// Beyond this many values per side, evenly spaced quantiles stand in for the sample, so
// the pairwise differences stay below a million (a conservative, wider interval).
constexpr size_t kMaxValuesPerSide = 1000;

std::vector<double> Present(const std::vector<double>& values) {
  std::vector<double> present;
  for (double value : values) {
    if (!std::isnan(value)) present.push_back(value);
  }
  std::sort(present.begin(), present.end());
  if (present.size() <= kMaxValuesPerSide) return present;
  std::vector<double> thinned;
  for (size_t i = 0; i < kMaxValuesPerSide; ++i) {
    thinned.push_back(present[i * (present.size() - 1) / (kMaxValuesPerSide - 1)]);
  }
  return thinned;
}

double MedianOfSorted(const std::vector<double>& sorted) {
  if (sorted.empty()) return 0;
  const size_t half = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

// Coefficients of the Gaussian binomial [n+m choose n](q): the number of orderings of two
// samples with each value of U. Built as prod_{i=1..n} (1 - q^(m+i)) / (1 - q^i); every
// partial product is itself a Gaussian binomial, so the coefficients stay non-negative.
std::vector<double> UCounts(size_t n, size_t m) {
  std::vector<double> counts(n * m + 1, 0.0);
  counts[0] = 1;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t u = n * m; u >= m + i && u <= n * m; --u) counts[u] -= counts[u - (m + i)];
    for (size_t u = i; u <= n * m; ++u) counts[u] += counts[u - i];
  }
  return counts;
}

// P(U <= u) for every u, computed once per pair of sample sizes: a compare evaluates
// hundreds of metrics that mostly share the same step counts.
const std::vector<double>& ExactLowerTails(size_t n, size_t m) {
  static std::mutex mutex;
  static std::map<std::pair<size_t, size_t>, std::vector<double>>* cache =
      new std::map<std::pair<size_t, size_t>, std::vector<double>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<double>& tails = (*cache)[{n, m}];
  if (!tails.empty()) return tails;
  const std::vector<double> counts = UCounts(n, m);
  double total = 0;
  for (double count : counts) total += count;
  double running = 0;
  for (double count : counts) {
    running += count;
    tails.push_back(running / total);
  }
  return tails;
}

double NormalLowerTail(size_t n, size_t m, long u) {
  const double mean = n * m / 2.0;
  const double sd = std::sqrt(n * m * (n + m + 1) / 12.0);
  return 0.5 * std::erfc(-((u + 0.5) - mean) / (sd * std::sqrt(2.0)));
}

// The k-th smallest (1-based) of the pairwise differences.
double KthDifference(std::vector<double>* differences, size_t k) {
  std::nth_element(differences->begin(), differences->begin() + (k - 1), differences->end());
  return (*differences)[k - 1];
}

// Largest k >= 1 with P(U <= k-1) <= alpha/2, or 0 when even k = 1 is too likely.
size_t IntervalRank(size_t n, size_t m, double alpha) {
  size_t low = 0, high = n * m / 2 + 1;  // invariant: low works (or 0), high does not
  while (high - low > 1) {
    const size_t mid = (low + high) / 2;
    if (MannWhitneyLowerTail(n, m, static_cast<long>(mid) - 1) <= alpha / 2) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return low;
}

}  // namespace

SampleSummary Summarize(const std::vector<double>& values) {
  const std::vector<double> sorted = Present(values);
  SampleSummary summary;
  summary.count = sorted.size();
  summary.median = MedianOfSorted(sorted);
  std::vector<double> deviations;
  for (double value : sorted) deviations.push_back(std::fabs(value - summary.median));
  std::sort(deviations.begin(), deviations.end());
  summary.noise = 1.4826 * MedianOfSorted(deviations);
  return summary;
}

double MannWhitneyLowerTail(size_t n, size_t m, long u) {
  if (u < 0) return 0;
  if (n == 0 || m == 0 || static_cast<size_t>(u) >= n * m) return 1;
  if (n * m > kMaxExactPairs) return std::min(1.0, NormalLowerTail(n, m, u));
  return ExactLowerTails(std::min(n, m), std::max(n, m))[u];
}

size_t MinimumStepsPerSide(double confidence) {
  for (size_t n = 1; n < 1000; ++n) {
    if (IntervalRank(n, n, 1 - confidence) >= 1) return n;
  }
  return 1000;
}

ShiftEstimate EstimateShift(const std::vector<double>& base, const std::vector<double>& candidate,
                            double confidence) {
  ShiftEstimate estimate;
  estimate.base = Summarize(base);
  estimate.candidate = Summarize(candidate);
  estimate.delta = estimate.candidate.median - estimate.base.median;
  const std::vector<double> x = Present(base), y = Present(candidate);
  if (x.empty() || y.empty()) return estimate;
  std::vector<double> differences;
  differences.reserve(x.size() * y.size());
  for (double b : x) {
    for (double c : y) differences.push_back(c - b);
  }
  const size_t k = IntervalRank(x.size(), y.size(), 1 - confidence);
  estimate.decided = k >= 1;
  const size_t rank = std::max<size_t>(k, 1);  // too few steps: the full range
  estimate.confidence =
      std::max(0.0, 1 - 2 * MannWhitneyLowerTail(x.size(), y.size(), static_cast<long>(rank) - 1));
  estimate.ci_low = KthDifference(&differences, rank);
  estimate.ci_high = KthDifference(&differences, differences.size() + 1 - rank);
  return estimate;
}

}  // namespace prof::analyzer::compare
