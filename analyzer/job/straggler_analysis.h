// Who the job waited for. From matched collectives on the aligned clock: per collective,
// the last-arriving rank and how long each other member waited for it (last arrival minus
// its own); per communicator, the arrival skew and who is last most often; job-wide, the
// ranks that were last and the waiting they caused. From each rank's steps (own clock, no
// alignment needed): per step, the slowest rank by excess compute (its compute, i.e. step
// time outside collectives, minus the median rank's), and over the run the straggler
// leaderboard. In synchronous training every rank's step takes as long as the slowest
// one's, so step time cannot name the straggler; compute before the collectives can.
#ifndef PROF_ANALYZER_JOB_STRAGGLER_ANALYSIS_H_
#define PROF_ANALYZER_JOB_STRAGGLER_ANALYSIS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "analyzer/job/clock_fit.h"
#include "analyzer/job/collective_match.h"
#include "analyzer/summary/collective_table.h"

namespace prof::analyzer {

struct LastArrival {
  uint32_t rank_index = 0;
  uint64_t times_last = 0;     // collectives at which it arrived last
  double wait_caused_ns = 0;   // the other members' waits at those collectives, summed
  double max_lateness_ns = 0;  // its largest lead over the second-last arrival
};

struct CommunicatorArrivals {
  uint64_t comm_hash = 0;
  size_t ranks = 0;
  uint64_t collectives = 0;  // complete N-to-N collectives analyzed
  double skew_p50_ns = 0;    // last arrival minus first, per collective
  double skew_p99_ns = 0;
  double waited_ns = 0;          // every member's wait, summed
  uint32_t most_often_last = 0;  // rank index
  uint64_t most_often_count = 0;
};

struct StepStraggler {
  int64_t step = 0;
  uint32_t rank_index = 0;  // the slowest rank
  double excess_ns = 0;     // its compute minus the median rank's
  double median_compute_ns = 0;
  size_t ranks = 0;
};

struct StragglerEntry {
  uint32_t rank_index = 0;
  double excess_ns = 0;  // positive excess compute, summed over steps
  uint64_t steps_slowest = 0;
  int64_t worst_step = -1;
  double worst_excess_ns = 0;
};

struct StragglerAnalysis {
  std::vector<StragglerEntry> stragglers;           // ranks with excess, worst first
  std::vector<LastArrival> last_arrivals;           // ranks last at least once, worst first
  std::vector<StepStraggler> worst_steps;           // every step, worst first
  std::vector<CommunicatorArrivals> communicators;  // most waiting first
  std::vector<double> waited_ns;                    // by rank index: its waits, summed
  std::vector<double> compute_per_step_ns;          // by rank index: average step compute
  uint64_t analyzed_collectives = 0;
};

StragglerAnalysis AnalyzeStragglers(const CollectiveMatch& match, const ClockFit& clock,
                                    const std::vector<const CollectiveTable*>& ranks);

// AnalyzeStragglers's two halves: from the matched collectives (last arrivals,
// communicators, waits; `rank_count` ranks) and from each rank's steps (the rest).
StragglerAnalysis AnalyzeArrivals(const CollectiveMatch& match, const ClockFit& clock,
                                  size_t rank_count);
void AnalyzeSteps(const std::vector<const CollectiveTable*>& ranks, StragglerAnalysis* analysis);

// AnalyzeArrivals's steps, for the analysis sharded by communicator
// (sharded_collectives.h), which must compute what it computes, to the bit.

// Complete, N-to-N, two or more members, every one on an aligned clock.
bool Analyzable(const MatchedCollective& collective, const ClockFit& clock);

// One analyzable collective on the aligned clock.
struct CollectiveWaits {
  uint32_t last_rank = 0;
  double waited_ns = 0;    // every member's wait for the last, summed in `waits`' order
  double lateness_ns = 0;  // the last's lead over the second-last
  double skew_ns = 0;      // last arrival minus first
  std::vector<std::pair<uint32_t, double>> waits;  // (rank index, its wait), by arrival
};
CollectiveWaits WaitsOf(const MatchedCollective& collective, const ClockFit& clock);

// Adds one collective at which `entry`'s rank was last.
void AddLastArrival(const CollectiveWaits& waits, LastArrival* entry);

// One communicator's collectives, in sequence order, and its figures.
struct CommunicatorTally {
  CommunicatorArrivals figures;
  std::vector<double> skews;
  std::map<uint32_t, uint64_t> last_counts;

  void Add(const MatchedCollective& collective, const CollectiveWaits& waits);
  CommunicatorArrivals Finish();
};

// AnalyzeSteps's steps, for the analysis sharded by step number.

// A rank's average step compute.
double ComputePerStep(const std::vector<StepRecord>& steps);

// One step number: `computes` (rank index, compute), two or more, in rank order (a rank's
// own steps in its order); appends each one's excess over the median, in that order.
StepStraggler AnalyzeStep(int64_t number, const std::vector<std::pair<uint32_t, double>>& computes,
                          std::vector<double>* excesses);

// Adds one step's positive excess to a rank's leaderboard entry (in step-number order).
void AddExcess(int64_t number, double excess, StragglerEntry* entry);

// Worst steps and stragglers worst first; ties keep their order (step number, rank index).
void SortSteps(StragglerAnalysis* analysis);

// Worst first; ties keep their order (rank index order, communicator hash order).
void SortLastArrivals(std::vector<LastArrival>* last_arrivals);
void SortCommunicators(std::vector<CommunicatorArrivals>* communicators);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_STRAGGLER_ANALYSIS_H_
