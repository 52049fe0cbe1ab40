// Noise-aware comparison of two per-step distributions: medians, the step-to-step noise
// of each side, and a distribution-free confidence interval for the shift between them
// (Hodges–Lehmann interval from the Mann–Whitney rank test: order statistics of the
// pairwise differences new_j − base_i, exact null distribution for small samples, normal
// approximation beyond). A change is "beyond noise" when that interval excludes zero.
// No random numbers, so the same inputs always give the same verdict.
#ifndef PROF_ANALYZER_COMPARE_SHIFT_STATISTICS_H_
#define PROF_ANALYZER_COMPARE_SHIFT_STATISTICS_H_

#include <cstddef>
#include <vector>

namespace prof::analyzer::compare {

struct SampleSummary {
  size_t count = 0;  // values used (missing ones left out)
  double median = 0;
  double noise = 0;  // robust standard deviation: 1.4826 x median absolute deviation
};

struct ShiftEstimate {
  SampleSummary base;
  SampleSummary candidate;
  double delta = 0;   // median(candidate) - median(base)
  double ci_low = 0;  // interval for the shift of candidate over base
  double ci_high = 0;
  double confidence = 0;  // what [ci_low, ci_high] achieves (may be below the request)
  bool decided = false;   // enough steps on both sides to reach the requested confidence
};

// Missing values (NaN) are ignored. `confidence` in (0, 1), e.g. 0.99.
ShiftEstimate EstimateShift(const std::vector<double>& base, const std::vector<double>& candidate,
                            double confidence);

SampleSummary Summarize(const std::vector<double>& values);

// Probability that the Mann–Whitney U of samples of sizes n and m is <= u when both come
// from one distribution (exact for n*m <= 40000, normal approximation beyond).
double MannWhitneyLowerTail(size_t n, size_t m, long u);

// The fewest steps per side (equal sides) that can reach `confidence`.
size_t MinimumStepsPerSide(double confidence);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_SHIFT_STATISTICS_H_
