// `profanalyze hang`: from the flight-recorder dumps of a job (any subset of its ranks),
// which rank(s) never entered the collective everyone else waits in. Collectives are
// matched across ranks by (communicator, sequence number) with the job view's matcher
// (collective_match.h), as PyTorch's Flight Recorder and NCCL RAS do: no clocks needed.
//
// Per communicator: the frontier (each rank's last sequence entered and completed), the
// collective waited in (the lowest sequence some rank entered and did not complete), the
// members that never entered it (the culprits), and the ranks grouped by that state, so a
// 10,000-rank job prints a few groups, not 10,000 lines. A rank without a dump is named
// missing; where the communicator spans the whole job, a missing rank that others wait
// for is a culprit with `dump_missing` set (nothing is known of what it did).
// A hang on the GPU (every host call returned, as real NCCL's do, and a kernel never
// finished): where every member entered the collective waited in, the culprits are the
// members that did not complete it while others did, or else those whose copy never
// started on the GPU (still enqueued behind other work on its stream) while others' started
// and wait for them, as the CUDA events around each call tell (FlightUnfinishedCall's
// device_state). When every copy started and none completed, nobody is named: the GPUs
// wait on each other (the network), which the frontier shows.
// Pure: no I/O (cli/hang_command.cc reads the files).
#ifndef PROF_ANALYZER_JOB_HANG_ANALYSIS_H_
#define PROF_ANALYZER_JOB_HANG_ANALYSIS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/summary/collective_table.h"

namespace prof::analyzer {

// What a rank's threads did last, in words, from the CUDA runtime calls and ranges its
// flight recorder kept (PROF_FLIGHT_HOST_ENTRIES); each empty where none was kept.
struct LastActivity {
  std::string api_call;  // "cudaStreamSynchronize (running at the dump)"
  std::string range;     // the innermost range open at the dump, else the last one begun
  std::string kernel;    // the last kernel launched (by the launch hooks), with its stream
};

// What a dump's recorder could not keep (FlightDump's counts): none of it is in the dump.
struct FlightLosses {
  uint64_t calls_overwritten = 0;     // the NCCL ring's oldest calls
  uint64_t calls_torn = 0;            // NCCL calls being rewritten while copied
  uint64_t host_overwritten = 0;      // CUDA calls and ranges, the oldest of their thread
  uint64_t host_torn = 0;             // CUDA calls and ranges being rewritten while copied
  uint64_t host_threads_refused = 0;  // threads that found no ring: nothing kept of them

  void Add(const FlightLosses& other);
  bool Any() const;
};

// One rank's flight dump (the latest, where a rank dumped more than once).
struct RankDump {
  int32_t rank = -1;
  int32_t world_size = 0;  // 0: unknown
  std::string host;
  int64_t pid = 0;
  std::string reason;  // FlightDump.reason
  std::string detail;
  FlightLosses losses;
  CollectiveTable calls;           // its NCCL calls with a communicator, in call order
  // (communicator, sequence) of calls still running at the dump or failed, each with its
  // GPU-side state (a DeviceState value).
  std::map<std::pair<uint64_t, int64_t>, int32_t> unfinished;
  int64_t last_step = -1;  // the last step boundary it marked; -1: none
  std::string last_call;   // its last NCCL call in words ("all-reduce #24 on 1a2b..: completed")
  LastActivity last;       // from the host activity its recorder kept
};

// FlightUnfinishedCall.device_state: kHost for a call that had not returned (or failed),
// else how far its GPU work got.
enum DeviceState : int32_t { kHost = 0, kEnqueued = 1, kStarted = 2, kCompleted = 3 };

// "entered, not returned", "enqueued, not completed", "started, not completed".
const char* UnfinishedStateText(int32_t device_state);

struct Culprit {
  int32_t rank = -1;
  uint64_t comm = 0;
  int64_t seq = 0;        // the collective it never entered
  int32_t operation = 0;  // what the others wait in (schema::NcclOperation)
  bool dump_missing = false;
  int64_t last_entered = 0;  // its last sequence on `comm` (0: none)
  int64_t last_step = -1;
  std::string last_call;
  LastActivity last;
  // "never entered", "no dump", or for a hang on the GPU the state of its copy of `seq`
  // ("enqueued, not completed": it never started there).
  std::string state;
};

struct RankGroup {
  std::string state;           // "waiting in #25", "never entered #25", "completed #30"
  int64_t entered = 0;         // last sequence entered on the communicator
  int64_t completed = 0;       // last sequence completed
  std::vector<int32_t> ranks;  // sorted
};

struct CommunicatorState {
  uint64_t comm = 0;
  int32_t size = 0;        // ranks in the communicator, where recorded
  int64_t waited_seq = 0;  // 0: nobody waits
  int32_t waited_operation = 0;
  std::vector<RankGroup> groups;  // largest first
};

struct MismatchedCollective {
  uint64_t comm = 0;
  int64_t seq = 0;
  // Each distinct (operation, bytes) and the ranks that called it so.
  struct Variant {
    int32_t operation = 0;
    uint64_t bytes = 0;
    std::vector<int32_t> ranks;
  };
  std::vector<Variant> variants;
};

struct HangReport {
  size_t dumps = 0;
  int32_t world_size = 0;                        // largest seen; 0: unknown
  std::vector<int32_t> missing_ranks;            // 0..world_size-1 without a dump
  std::vector<CommunicatorState> communicators;  // waited-in ones first
  std::vector<Culprit> culprits;
  std::vector<MismatchedCollective> mismatches;
  FlightLosses losses;  // summed over the dumps
};

HangReport AnalyzeHang(std::vector<RankDump> dumps);

// "0-2,4,6-9": sorted ranks as ranges, at most `max_ranges` of them, then "... (+N more)".
std::string RankRanges(const std::vector<int32_t>& ranks, size_t max_ranges = 8);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_HANG_ANALYSIS_H_
