// The q-quantile of `values` by nearest rank (index round(q * (n - 1))), 0 when empty: the
// one rule the job view's figures (clock residuals, skews, per-rank distributions) use.
// q = 0.5 is the upper median (index n / 2).
#ifndef PROF_ANALYZER_JOB_QUANTILE_H_
#define PROF_ANALYZER_JOB_QUANTILE_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace prof::analyzer {

inline double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const size_t at = std::min(values.size() - 1, static_cast<size_t>(q * (values.size() - 1) + 0.5));
  std::nth_element(values.begin(), values.begin() + at, values.end());
  return values[at];
}

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_QUANTILE_H_
