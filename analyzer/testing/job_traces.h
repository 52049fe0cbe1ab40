// Test support: a synthetic multi-rank job written as real trace files, one per rank,
// with what the analyzer must find injected by construction. Time runs on one true clock;
// each rank's host clock is that clock plus its host's offset and drift (ranks_per_host
// ranks share a host and its clock). Every step, each rank computes, then enters an
// all-reduce on the world communicator; the all-reduce ends on every rank when the last
// rank's kernel has started plus a transfer time; then an optimizer phase and a small
// all-gather that waits the same way. With tensor_parallel = T > 1 the job has many
// communicators, as tensor x data parallel training does: the all-reduce runs in each
// tensor-parallel group (T consecutive ranks) and the all-gather in each data-parallel
// group (the ranks with the same rank % T), each waiting for its own members only. Injected: per-rank jitter, a transient straggler
// (computes `straggler_extra_ns` longer in steps straggler_first_step..last_step), a
// habitual late arriver (computes `late_extra_ns` longer every step) and a rank whose
// all-gather of one step is missing from its trace.
//
//   JobSpec spec;
//   spec.ranks = 16;
//   spec.straggler_rank = 11;
//   const JobTruth truth = WriteJobTraces(spec, ScratchFolder("job16"));
//   // analyze truth.folder; compare offsets with truth.HostClock(rank, t)
#ifndef PROF_ANALYZER_TESTING_JOB_TRACES_H_
#define PROF_ANALYZER_TESTING_JOB_TRACES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace prof::analyzer::testing {

inline constexpr uint64_t kJobCommHash = 0xC0111EC7;

struct JobSpec {
  int ranks = 16;
  int ranks_per_host = 8;
  int steps = 20;
  uint64_t compute_ns = 20000000;        // before the all-reduce
  uint64_t optimizer_ns = 2000000;       // between the all-reduce and the all-gather
  uint64_t transfer_ns = 2000000;        // all-reduce, once every rank has arrived
  uint64_t gather_transfer_ns = 200000;  // all-gather
  uint64_t jitter_ns = 50000;            // per rank and step, deterministic, in [0, jitter]
  int64_t max_offset_ns = 5000000;       // per-host clock offsets in [-max, +max]
  double max_drift_ppm = 10;             // per-host drift in [-max, +max]
  int straggler_rank = -1;
  uint64_t straggler_extra_ns = 0;
  int straggler_first_step = 0;
  int straggler_last_step = -1;
  int late_rank = -1;
  uint64_t late_extra_ns = 0;
  int missing_rank = -1;  // its all-gather of `missing_step` is not in its trace
  int missing_step = -1;
  int tensor_parallel = 1;  // T: ranks must be a multiple of it; 1: the world communicator only
};

// The communicator hashes of the tensor- and data-parallel groups (tensor_parallel > 1).
uint64_t TensorGroupHash(int group);
uint64_t DataGroupHash(int group);

struct JobTruth {
  std::string folder;
  std::vector<std::string> paths;       // by rank
  std::vector<int64_t> host_offset_ns;  // by host
  std::vector<double> host_drift_ppm;   // by host
  int ranks_per_host = 8;

  // Rank `rank`'s host clock reading at true time `true_ns`.
  uint64_t HostClock(int rank, uint64_t true_ns) const;
};

// Writes one file per rank (rank_NNNNN.pb) into the existing folder `folder`.
JobTruth WriteJobTraces(const JobSpec& spec, const std::string& folder);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_JOB_TRACES_H_
