// Fits each rank's clock to the reference rank's (the first rank, usually rank 0) from
// matched N-to-N collectives, whose ends are near-simultaneous on every member: a
// collective that waits for every rank finishes everywhere a transfer time after the last
// arrival. Per rank: offset and drift, fitted by least squares on the end differences that
// lie within 5 median absolute deviations of their median (robust to a few odd ends).
// Ranks that share no collective with the reference are reached through ranks already
// fitted (a breadth-first walk over shared collectives). Residuals are reported and clock
// violations (an aligned end before another member's aligned arrival) counted, never hidden.
//
//   ClockFit fit = FitClocks(match, ranks.size());
//   double on_reference_clock = fit.Align(rank_index, t);
#ifndef PROF_ANALYZER_JOB_CLOCK_FIT_H_
#define PROF_ANALYZER_JOB_CLOCK_FIT_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer/job/collective_match.h"

namespace prof::analyzer {

// A violation is an end earlier than another member's arrival by more than this (ns).
inline constexpr double kClockViolationToleranceNs = 5000;

struct RankClock {
  bool fitted = false;       // false: shares no N-to-N collective with a fitted rank (offset 0)
  double offset_ns = 0;      // this clock minus the reference's, at pivot_ns
  double drift = 0;          // ns per ns (x1e6: ppm)
  double pivot_ns = 0;       // on this rank's clock
  uint64_t collectives = 0;  // end differences used
  double residual_ns = 0;    // median |aligned end - collective's median end|
};

struct ClockFit {
  uint32_t reference = 0;  // rank index
  std::vector<RankClock> ranks;
  uint64_t fitted_collectives = 0;  // complete N-to-N collectives with two or more ranks
  double residual_p50_ns = 0;
  double residual_p99_ns = 0;
  double residual_max_ns = 0;
  uint64_t violations = 0;  // collectives with a clock violation
  uint64_t checked = 0;     // collectives checked for violations

  // `t_ns` on rank `rank_index`'s clock, on the reference's clock.
  double Align(uint32_t rank_index, double t_ns) const;
};

ClockFit FitClocks(const CollectiveMatch& match, size_t rank_count);

// FitClocks's steps, for the fit sharded by communicator (sharded_collectives.h), which
// must compute what FitClocks computes, to the bit.

// One end difference: the end on the rank's clock, minus the collective's end on the
// reference clock.
struct ClockSample {
  double x = 0;
  double d = 0;
};

// A complete N-to-N collective with two or more members: one that clocks are fitted on.
bool UsableForClocks(const MatchedCollective& collective);

// The samples one usable collective gives its unfitted members (none while no member is
// fitted), as (rank index, sample).
void AddClockSamples(const MatchedCollective& collective, const ClockFit& fit,
                     std::vector<std::pair<uint32_t, ClockSample>>* samples);

// Offset and drift from one rank's samples (in its collectives' order): least squares on
// the inliers.
RankClock FitRank(const std::vector<ClockSample>& samples);

// One usable collective checked on the final fit: its fitted members' residuals, as (rank
// index, |aligned end - median end|), and whether an end precedes another's arrival.
struct CollectiveCheck {
  bool checked = false;  // false: no member fitted
  bool violation = false;
  std::vector<std::pair<uint32_t, double>> residuals;
};
CollectiveCheck CheckCollective(const MatchedCollective& collective, const ClockFit& fit);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_CLOCK_FIT_H_
