// Per-rank metrics across the job, as distributions with their outlier ranks named:
// readable at any rank count where one row per rank is not. An outlier is a rank whose
// value lies more than max(3 x 1.4826 x MAD, 1% of |median|) from the median.
#ifndef PROF_ANALYZER_JOB_RANK_DISTRIBUTIONS_H_
#define PROF_ANALYZER_JOB_RANK_DISTRIBUTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace prof::analyzer {

struct MetricDistribution {
  std::string name;  // "Step compute (avg)"
  std::string key;   // JSON key, "step_compute_ns"
  bool time = true;  // ns; else a count
  size_t ranks = 0;
  double min = 0, p50 = 0, p90 = 0, max = 0;
  std::vector<uint32_t> outliers;  // rank indices, farthest from the median first
  std::vector<double> values;      // by rank index (for naming the outliers)
};

// `values` by rank index; `present[i]` false leaves rank i out (e.g. a clock not fitted).
MetricDistribution Distribution(std::string name, std::string key, bool time,
                                std::vector<double> values, const std::vector<bool>& present = {});

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_RANK_DISTRIBUTIONS_H_
