#include "analyzer/summary/nccl_summary.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/nccl_kernel_time.h"
#include "proto/schema_names.h"

namespace prof::analyzer {
namespace {

std::string SizeLabel(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return absl::StrCat(bytes, units[unit]);
}

// "ALL_TO_ALL"; "OP_13" for a value this build does not know (a newer agent's trace).
std::string OperationName(schema::NcclOperation operation) { return NcclOperationName(operation); }

}  // namespace

double BusBandwidthFactor(schema::NcclOperation operation, int ranks) {
  if (ranks <= 0) return 1;
  const double n = ranks;
  switch (operation) {
    case schema::NCCL_OPERATION_ALL_REDUCE: return 2 * (n - 1) / n;
    case schema::NCCL_OPERATION_ALL_GATHER:
    case schema::NCCL_OPERATION_REDUCE_SCATTER:
    case schema::NCCL_OPERATION_ALL_TO_ALL:
    case schema::NCCL_OPERATION_GATHER:
    case schema::NCCL_OPERATION_SCATTER: return (n - 1) / n;
    default: return 1;
  }
}

std::string MessageSizeBucket(uint64_t bytes) {
  if (bytes < 1024) return "<1KiB";
  uint64_t low = 1024;
  while (low <= bytes / 4 && low < (uint64_t{1} << 30)) low *= 4;
  if (low >= (uint64_t{1} << 30)) return ">=1GiB";
  return absl::StrCat(SizeLabel(low), "-", SizeLabel(low * 4));
}

void AddNcclFigures(const AnalysisContext& window, NcclFigures* figures) {
  const TraceModel& model = *window.model;
  const std::vector<uint64_t> kernel_ns = NcclKernelTimePerCall(model);
  for (size_t i = 0; i < model.nccl_calls.size(); ++i) {
    const NcclCall& call = model.nccl_calls[i];
    if (call.operation == schema::NCCL_OPERATION_GROUP_START ||
        call.operation == schema::NCCL_OPERATION_GROUP_END)
      continue;
    const bool linked = kernel_ns[i] > 0;
    const double time = linked ? kernel_ns[i] : static_cast<double>(call.end_ns - call.start_ns);
    uint64_t floor = call.bytes < 1024 ? 0 : 1024;
    while (floor && floor <= call.bytes / 4 && floor < (uint64_t{1} << 30)) floor *= 4;
    NcclBucket& bucket = figures->buckets[{call.operation, floor, MessageSizeBucket(call.bytes)}];
    bucket.time.Add(time);
    bucket.bytes += call.bytes;
    bucket.ranks = std::max(bucket.ranks, call.rank_count);
    bucket.host_timed += !linked;
    figures->host_timed += !linked;
    figures->all_time_ns += time;
  }
}

std::optional<SummaryTable> NcclSummary(const NcclFigures& figures) {
  if (figures.buckets.empty()) return std::nullopt;
  SummaryTable table;
  table.key = "nccl";
  table.title = "NCCL Summary";
  table.columns = {{"Collective", "collective", 14},
                   {"Size", "size_bucket", 12},
                   {"Calls", "calls", 6},
                   {"Time Total / Avg / Max / Min / Ratio(%)", "time", 40},
                   {"Bytes", "bytes", 12},
                   {"AlgBW (GB/s)", "algbw_gbps", 12},
                   {"BusBW (GB/s)", "busbw_gbps", 12},
                   {"Ranks", "ranks", 5}};
  for (const auto& [key, bucket] : figures.buckets) {
    const auto operation = static_cast<schema::NcclOperation>(std::get<0>(key));
    const double algbw = SafeRatio(bucket.bytes, bucket.time.total);  // bytes/ns = GB/s
    table.AddRow({Cell::Text(OperationName(operation)), Cell::Text(std::get<2>(key)),
                  Cell::Count(bucket.time.calls),
                  Cell::Stats(bucket.time.ToStats(figures.all_time_ns)), Cell::Bytes(bucket.bytes),
                  Cell::Number(algbw, 2),
                  Cell::Number(algbw * BusBandwidthFactor(operation, bucket.ranks), 2),
                  Cell::Count(bucket.ranks)});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "Time: GPU time of the NCCL kernels launched inside the call; AlgBW = bytes / time;",
      "BusBW = AlgBW x nccl-tests factor for the communicator's rank count (Ranks; 0: unknown).",
      absl::StrFormat("%d call(s) had no linked NCCL kernel and are timed by their host duration.",
                      figures.host_timed)};
  return table;
}

}  // namespace prof::analyzer
