// The noise-aware statistics on synthetic distributions: the exact rank-test tail, the
// interval's coverage on identical distributions (false positives), detection of shifts
// larger than the noise, zero-noise metrics, too few steps, outliers and missing values.
#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/compare/shift_statistics.h"
#include "analyzer/compare/step_metrics.h"

namespace prof::analyzer::compare {
namespace {

std::vector<double> Draw(std::mt19937_64* random, size_t count, double median,
                         double relative_noise) {
  std::normal_distribution<double> noise(0, relative_noise * median);
  std::vector<double> values;
  for (size_t i = 0; i < count; ++i) values.push_back(median + noise(*random));
  return values;
}

TEST_CASE("exact Mann-Whitney tail") {
  CHECK(MannWhitneyLowerTail(5, 5, 0) == Approx(1.0 / 252));
  CHECK(MannWhitneyLowerTail(3, 4, 1) == Approx(2.0 / 35));
  CHECK(MannWhitneyLowerTail(10, 10, 100) == 1);
  CHECK(MannWhitneyLowerTail(10, 10, 99) == Approx(1 - 1.0 / 184756));
  CHECK(MannWhitneyLowerTail(10, 10, 49) == Approx(0.5).margin(0.05));
  // The normal approximation beyond the exact range agrees with the exact tail near it.
  CHECK(MannWhitneyLowerTail(201, 201, 16000) ==
        Approx(MannWhitneyLowerTail(199, 199, 15700)).margin(0.05));
  CHECK(MinimumStepsPerSide(0.99) == 5);
  CHECK(MinimumStepsPerSide(0.95) == 4);
}

TEST_CASE("identical distributions: the 99% interval excludes zero in about 1% of pairs") {
  std::mt19937_64 random(7);
  int excluded = 0;
  const int pairs = 2000;
  for (int i = 0; i < pairs; ++i) {
    const ShiftEstimate shift =
        EstimateShift(Draw(&random, 12, 1000, 0.2), Draw(&random, 12, 1000, 0.2), 0.99);
    REQUIRE(shift.decided);
    excluded += shift.ci_low > 0 || shift.ci_high < 0;
  }
  CHECK(excluded <= 0.015 * pairs);
}

TEST_CASE("a shift well beyond the noise lies inside the interval, which excludes zero") {
  std::mt19937_64 random(11);
  for (int i = 0; i < 50; ++i) {
    const ShiftEstimate shift =
        EstimateShift(Draw(&random, 10, 1000, 0.01), Draw(&random, 10, 1100, 0.01), 0.99);
    CHECK(shift.ci_low > 50);
    CHECK(shift.ci_low < 100);
    CHECK(shift.ci_high > 100);
    CHECK(shift.delta == Approx(100).margin(30));
  }
}

TEST_CASE("zero-noise metrics give an exact interval") {
  const ShiftEstimate same =
      EstimateShift(std::vector<double>(10, 41350), std::vector<double>(10, 41350), 0.99);
  CHECK(same.ci_low == 0);
  CHECK(same.ci_high == 0);
  const ShiftEstimate slower =
      EstimateShift(std::vector<double>(10, 41350), std::vector<double>(10, 45485), 0.99);
  CHECK(slower.ci_low == 4135);
  CHECK(slower.ci_high == 4135);
  CHECK(slower.base.noise == 0);
  CHECK(slower.confidence > 0.99);
}

TEST_CASE("too few steps: undecided, with the confidence actually reached") {
  const ShiftEstimate shift = EstimateShift({1, 2, 3}, {10, 11, 12}, 0.99);
  CHECK_FALSE(shift.decided);
  CHECK(shift.confidence == Approx(0.9));  // 1 - 2/C(6,3)
  CHECK(shift.ci_low == 7);                // the full range of differences
  CHECK(shift.ci_high == 11);
}

TEST_CASE("an outlier step moves the median little; missing values are left out") {
  std::vector<double> base = {100, 101, 99, 100, 102, 98, 100, 101, 99, 5000};
  std::vector<double> candidate = {100, 101, 99, 100, 102, 98, 100, 101, 99, 100, MissingValue()};
  const ShiftEstimate shift = EstimateShift(base, candidate, 0.99);
  CHECK(shift.candidate.count == 10);
  CHECK(shift.delta == Approx(0).margin(1));
  CHECK(shift.ci_low <= 0);
  CHECK(shift.ci_high >= 0);
  CHECK(shift.base.noise == Approx(1.4826).margin(0.01));
}

}  // namespace
}  // namespace prof::analyzer::compare
