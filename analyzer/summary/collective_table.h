// What one process contributes to the job view (analyzer/job/): one row per NCCL
// collective it called (GROUP_START/END left out) and one per step, on the process's own
// host clock. Built window by window like every summary's figures; one small row per call,
// so a job of thousands of ranks keeps all of them. No cross-rank logic here.
//
//   CollectiveTable table;
//   for (each window's context) AddCollectiveRecords(context, &table);
#ifndef PROF_ANALYZER_SUMMARY_COLLECTIVE_TABLE_H_
#define PROF_ANALYZER_SUMMARY_COLLECTIVE_TABLE_H_

#include <cstdint>
#include <vector>

#include "analyzer/summary/analysis_context.h"

namespace prof::analyzer {

struct CollectiveRecord {
  uint64_t comm_hash = 0;
  int64_t sequence = 0;    // the agent's per-communicator number; 0: none (older agents)
  int32_t operation = 0;   // schema::NcclOperation
  int32_t rank_count = 0;  // communicator size; 0: unknown
  uint64_t bytes = 0;
  // Arrival: the first linked NCCL kernel's start (the GPU reached the collective), else
  // the host call's start. End: the last linked kernel's end, else the call's end.
  uint64_t enter_ns = 0;
  uint64_t end_ns = 0;
  int64_t step = -1;  // number of the step holding the host call; -1: none
  bool kernel_timed = false;
};

struct StepRecord {
  int64_t number = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  // Union of the step's collectives [enter, end], clipped to the step: time spent in
  // (or waiting in) collectives. The rest is the step's compute.
  uint64_t collective_ns = 0;

  uint64_t ComputeNs() const {
    return end_ns - start_ns > collective_ns ? end_ns - start_ns - collective_ns : 0;
  }
};

struct CollectiveTable {
  std::vector<CollectiveRecord> collectives;  // in window order, then call order
  std::vector<StepRecord> steps;              // in window order, then start order
};

// A collective call's row as its host saw it: arrival and end are the call's own times
// (AddCollectiveRecords moves them to the linked kernels' where there are some).
CollectiveRecord HostCollectiveRecord(const NcclCall& call);

// Adds one window's collectives and steps.
void AddCollectiveRecords(const AnalysisContext& window, CollectiveTable* table);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_COLLECTIVE_TABLE_H_
