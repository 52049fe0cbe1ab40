// What every summary reads while it accumulates one recording window: the window's model,
// its range tree, the options, and the figures several tables share (the step windows, T,
// the step GPU times G and GG). Built once per window by MakeAnalysisContext; read-only
// afterwards. RunTotals sums the shared figures over the windows of a process, for the
// renderers.
#ifndef PROF_ANALYZER_SUMMARY_ANALYSIS_CONTEXT_H_
#define PROF_ANALYZER_SUMMARY_ANALYSIS_CONTEXT_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/trace_model.h"
#include "analyzer/summary/intervals.h"
#include "analyzer/summary/summary_table.h"
#include "analyzer/tree/range_tree.h"

namespace prof::analyzer {

enum class SortKey { kCpuTotal, kCpuAvg, kCpuMax, kCpuMin, kGpuTotal, kGpuAvg, kGpuMax, kGpuMin };

struct SummaryOptions {
  SortKey sorted_by = SortKey::kCpuTotal;
  bool op_detail = true;
  bool thread_sep = false;
  int top = 0;                  // rows per name table; 0: all
  int perf_skip = -1;           // warm-up steps the Perf Summary skips; -1: automatic (README)
  bool group_by_shape = false;  // Operator Summary: one row per (name, input shapes)
  bool self_time = false;       // text tables show the Self CPU / Self GPU columns
  // Count step 0 of a run recorded without a schedule as a step (--include-setup). By
  // default it is set-up: it runs from the program's start (imports, model building) to
  // the first step boundary, and is shown apart (setup_summary.h).
  bool include_setup = false;
};

// The window's records counted by kind, taken in the context's one walk over each record
// type (the walk that finds the steps and sums their device time), so a summary that lays
// out per-kind interval lists reserves each at its exact size without a counting pass of
// its own (millions of records, each pass a few percent of the analysis). Only reserve
// sizes: nothing computed depends on them.
struct RecordCounts {
  size_t ranges_by_type[static_cast<size_t>(RangeType::kMark) + 1] = {};
  size_t device_by_kind[static_cast<size_t>(DeviceKind::kSynchronization) + 1] = {};
  // Kernel records per device, sorted by device (a handful of devices).
  std::vector<std::pair<uint32_t, size_t>> kernels_by_device;
  size_t nccl_kernels = 0;  // kernel records of NCCL (DeviceActivity::nccl)

  size_t Ranges(RangeType type) const { return ranges_by_type[static_cast<size_t>(type)]; }
  size_t Device(DeviceKind kind) const { return device_by_kind[static_cast<size_t>(kind)]; }
};

struct SelfTimes;  // self_time.h

struct AnalysisContext {
  const TraceModel* model = nullptr;
  const RangeTree* tree = nullptr;
  SummaryOptions options;
  // Union of the steps; without steps, the span of all host-side events.
  IntervalList window;
  uint64_t total_ns = 0;  // T: the length of `window`
  bool has_steps = false;
  std::vector<uint32_t> steps;  // indices of the step ranges, by start time
  // The set-up step (ProfileStep#0 of a file recorded with no schedule), left out of
  // `steps` and `window` unless options.include_setup; kNoIndex when none.
  int32_t setup_step = kNoIndex;
  // Kernel time (G) and all device time (GG) launched by calls starting inside a step.
  uint64_t step_kernel_ns = 0;
  uint64_t step_device_ns = 0;
  std::vector<uint64_t> kernel_ns_per_step;  // parallel to `steps`
  std::vector<uint64_t> device_ns_per_step;
  RecordCounts counts;
  // Indices in model.device_activities of the copy and memset records, in record order,
  // taken in the context's walk: the copy table reads them without a walk of its own over
  // every record (most are kernels).
  std::vector<uint32_t> copy_records;
  // Every range's self times, computed by the first summary that asks (SelfTimesOf) and
  // shared by the others: a context belongs to one window and one thread.
  mutable std::shared_ptr<const SelfTimes> self_times;
};

AnalysisContext MakeAnalysisContext(const TraceModel& model, const RangeTree& tree,
                                    const SummaryOptions& options);

// The shared figures of every window of a process so far. Windows never overlap in time,
// so lengths and counts add up.
struct RunTotals {
  uint64_t total_ns = 0;  // T
  bool has_steps = false;
  uint64_t step_count = 0;
  uint64_t step_kernel_ns = 0;  // G
  uint64_t step_device_ns = 0;  // GG

  void Add(const AnalysisContext& window) {
    total_ns += window.total_ns;
    has_steps |= window.has_steps;
    step_count += window.steps.size();
    step_kernel_ns += window.step_kernel_ns;
    step_device_ns += window.step_device_ns;
  }
};

// What a renderer reads besides its own figures.
struct RenderContext {
  const StringPool* names = nullptr;  // the process's names (every window's ids)
  const RunTotals* totals = nullptr;
  SummaryOptions options;
};

// Index into context.steps of the step holding `time_ns`, or -1.
int FindStep(const AnalysisContext& context, uint64_t time_ns);

// Accumulates calls / total / max / min of durations (ns).
struct DurationStats {
  uint64_t calls = 0;
  double total = 0;
  // Start at the neutral values, so Add needs no first-call branch (it runs a few times per
  // record); read through Max() / Min(), which give 0 for no calls.
  double max_seen = -std::numeric_limits<double>::infinity();
  double min_seen = std::numeric_limits<double>::infinity();

  void Add(double duration) {
    max_seen = std::max(max_seen, duration);
    min_seen = std::min(min_seen, duration);
    total += duration;
    ++calls;
  }
  void Merge(const DurationStats& other) {
    if (other.calls == 0) return;
    max_seen = std::max(max_seen, other.max_seen);
    min_seen = std::min(min_seen, other.min_seen);
    total += other.total;
    calls += other.calls;
  }
  double Max() const { return calls ? max_seen : 0; }
  double Min() const { return calls ? min_seen : 0; }
  double Average() const { return calls ? total / calls : 0; }
  // The composite cell value; `denominator` 0 gives a 0 ratio.
  TimeStats ToStats(double denominator) const {
    TimeStats stats;
    stats.total_ns = total;
    stats.avg_ns = Average();
    stats.max_ns = Max();
    stats.min_ns = Min();
    stats.ratio = denominator > 0 ? total / denominator : 0;
    return stats;
  }
};

inline double SafeRatio(double numerator, double denominator) {
  return denominator > 0 ? numerator / denominator : 0;
}

// Sort value of an item with the given CPU and GPU stats (paddle's SortedKeys).
double SortValue(SortKey key, const DurationStats& cpu, const DurationStats& gpu);
// True for the *Min keys, which sort ascending.
bool SortsAscending(SortKey key);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_ANALYSIS_CONTEXT_H_
