// NCCL Summary: per collective and message-size bucket (powers of 4 from 1 KiB): calls,
// time, bytes, algorithm bandwidth (bytes / time) and bus bandwidth (algbw times the
// nccl-tests factor: all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all, gather,
// scatter (n-1)/n; broadcast, reduce, send, recv 1). Bytes are nccl-tests' size S, as the
// agent records them (count * element size, times n where the count is per rank). A call's time is
// the GPU time of the NCCL kernels launched inside it on the same thread, or its host duration when
// no kernel could be linked (counted in the note).
#ifndef PROF_ANALYZER_SUMMARY_NCCL_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_NCCL_SUMMARY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// nccl-tests' bus bandwidth factor for `operation` over `ranks` ranks (1 when unknown).
double BusBandwidthFactor(schema::NcclOperation operation, int ranks);

// "1KiB-4KiB", "<1KiB", ">=1GiB".
std::string MessageSizeBucket(uint64_t bytes);

struct NcclBucket {
  DurationStats time;
  double bytes = 0;
  int ranks = 0;
  uint64_t host_timed = 0;
};

struct NcclFigures {
  // By (operation, bucket floor in bytes, bucket label).
  std::map<std::tuple<int, uint64_t, std::string>, NcclBucket> buckets;
  double all_time_ns = 0;
  uint64_t host_timed = 0;  // calls with no linked kernel
};

// Adds one window's collectives.
void AddNcclFigures(const AnalysisContext& window, NcclFigures* figures);
std::optional<SummaryTable> NcclSummary(const NcclFigures& figures);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_NCCL_SUMMARY_H_
