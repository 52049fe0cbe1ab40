// The q-quantile of `values` by nearest rank (index round(q * (n - 1))), 0 when empty: the
// one rule the job view's figures (clock residuals, skews, per-rank distributions) use.
// q = 0.5 is the upper median (index n / 2).
#ifndef PROF_ANALYZER_JOB_QUANTILE_H_
#define PROF_ANALYZER_JOB_QUANTILE_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace prof::analyzer {

// The index of the q-quantile in `n` sorted values (n > 0).
inline size_t QuantileIndex(size_t n, double q) {
  return std::min(n - 1, static_cast<size_t>(q * (n - 1) + 0.5));
}

inline double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const size_t at = QuantileIndex(values.size(), q);
  std::nth_element(values.begin(), values.begin() + at, values.end());
  return values[at];
}

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_QUANTILE_H_
