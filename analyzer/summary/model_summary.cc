#include "analyzer/summary/model_summary.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/summary/self_time.h"

namespace prof::analyzer {
namespace {

// Per range (indexed like model.ranges): true when it or one of its ancestors on its
// thread is a model phase. Filled in pre-order, where a parent precedes its children, so
// each range reads its parent's answer instead of walking up the tree (once per kernel).
std::vector<bool> InsidePhaseByRange(const AnalysisContext& context) {
  const std::vector<HostRange>& ranges = context.model->ranges;
  std::vector<bool> inside(ranges.size(), false);
  for (uint32_t index : context.tree->preorder) {
    const int32_t parent = context.tree->parent[index];
    inside[index] = IsModelPhase(ranges[index].type) || (parent != kNoIndex && inside[parent]);
  }
  return inside;
}

// True when the window has a model phase range, by the context's counts (IsModelPhase
// says which types are phases).
bool AnyModelPhase(const RecordCounts& counts) {
  for (size_t type = 0; type < std::size(counts.ranges_by_type); ++type) {
    if (counts.ranges_by_type[type] > 0 && IsModelPhase(static_cast<RangeType>(type))) return true;
  }
  return false;
}

std::vector<Cell> PhaseRow(const char* name, const ModelPhaseTotals& totals, int slot,
                           double total_ns, double gpu_total_ns) {
  return {Cell::Text(name),
          Cell::Count(totals.cpu[slot].calls),
          Cell::Stats(totals.cpu[slot].ToStats(total_ns)),
          Cell::Stats(totals.gpu[slot].ToStats(gpu_total_ns)),
          Cell::Stats(totals.self_cpu[slot].ToStats(total_ns)),
          Cell::Stats(totals.self_gpu[slot].ToStats(gpu_total_ns))};
}

// Kernel time launched by threads that have no phase of their own at that moment, given
// to the top-level phase open then (on another thread): PyTorch runs backward kernels on
// its autograd threads while Backward is open on the training thread. Indexed like
// `phases` (top-level phases sorted by start).
std::vector<uint64_t> KernelTimeFromOtherThreads(const AnalysisContext& context,
                                                 const std::vector<bool>& inside_phase,
                                                 const std::vector<uint32_t>& phases) {
  const TraceModel& model = *context.model;
  const std::vector<int32_t>& call_range = context.tree->call_range;
  std::vector<uint64_t> extra(phases.size(), 0);
  if (phases.empty()) return extra;  // no phase to give kernel time to
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.kind != DeviceKind::kKernel || activity.api_call == kNoIndex) continue;
    const ApiCall& call = model.api_calls[activity.api_call];
    // Counted on its own thread.
    const int32_t range = call_range[activity.api_call];
    if (range != kNoIndex && inside_phase[range]) continue;
    auto after = std::upper_bound(
        phases.begin(), phases.end(), call.start_ns,
        [&](uint64_t time, uint32_t index) { return time < model.ranges[index].start_ns; });
    if (after == phases.begin()) continue;
    const HostRange& phase = model.ranges[*(after - 1)];
    if (phase.thread_id == call.thread_id || call.start_ns >= phase.end_ns) continue;
    extra[after - 1 - phases.begin()] += activity.end_ns - activity.start_ns;
  }
  return extra;
}

}  // namespace

void AddModelPhaseTotals(const AnalysisContext& context, ModelPhaseTotals* totals_out) {
  ModelPhaseTotals& totals = *totals_out;
  const std::vector<HostRange>& ranges = context.model->ranges;
  const SelfTimes& self = SelfTimesOf(context);
  for (size_t i = 0; i < context.steps.size(); ++i) {
    const HostRange& step = ranges[context.steps[i]];
    totals.cpu[0].Add(step.end_ns - step.start_ns);
    totals.gpu[0].Add(context.kernel_ns_per_step[i]);
    totals.self_cpu[0].Add(self.cpu_ns[context.steps[i]]);
    totals.self_gpu[0].Add(self.kernel_ns[context.steps[i]]);
  }
  // No phase range in the window (the context counted them): nothing below would find one,
  // so the two walks over every range are skipped.
  if (!AnyModelPhase(context.counts)) return;
  const std::vector<bool> inside_phase = InsidePhaseByRange(context);
  std::vector<uint32_t> phases;
  for (uint32_t index : context.tree->preorder) {
    // Top-level phases only: none with a phase above it.
    const int32_t parent = context.tree->parent[index];
    if (!IsModelPhase(ranges[index].type)) continue;
    if (parent != kNoIndex && inside_phase[parent]) continue;
    // Phases of the set-up step stay out, with the step itself (setup_summary.h).
    if (context.setup_step != kNoIndex &&
        ranges[index].start_ns < ranges[context.setup_step].end_ns &&
        ranges[index].start_ns >= ranges[context.setup_step].start_ns) {
      continue;
    }
    phases.push_back(index);
  }
  std::sort(phases.begin(), phases.end(),
            [&](uint32_t a, uint32_t b) { return ranges[a].start_ns < ranges[b].start_ns; });
  const std::vector<uint64_t> extra = KernelTimeFromOtherThreads(context, inside_phase, phases);
  for (size_t i = 0; i < phases.size(); ++i) {
    const HostRange& range = ranges[phases[i]];
    const int slot = static_cast<int>(range.type);
    totals.cpu[slot].Add(range.end_ns - range.start_ns);
    totals.gpu[slot].Add(context.tree->kernel_ns[phases[i]] + extra[i]);
    // Kernels from threads without a phase have no child range here: they are the phase's own.
    totals.self_cpu[slot].Add(self.cpu_ns[phases[i]]);
    totals.self_gpu[slot].Add(self.kernel_ns[phases[i]] + extra[i]);
  }
}

std::optional<SummaryTable> ModelSummary(const ModelPhaseTotals& totals,
                                         const RenderContext& context) {
  int items = 0;
  for (const DurationStats& stats : totals.cpu) items += stats.calls > 0;
  if (items < 2) return std::nullopt;  // paddle needs two distinct items

  SummaryTable table;
  table.key = "model";
  table.title = "Model Summary";
  table.columns = {{"Name", "name", 15, false},
                   {"Calls", "calls", 6},
                   {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
                   {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40},
                   {"Self CPU Total / Avg / Max / Min / Ratio(%)", "self_cpu", 40, true,
                    !context.options.self_time},
                   {"Self GPU Total / Avg / Max / Min / Ratio(%)", "self_gpu", 40, true,
                    !context.options.self_time}};
  const double total = static_cast<double>(context.totals->total_ns);
  const double gpu_total = static_cast<double>(context.totals->step_kernel_ns);
  double other_cpu = total;
  double other_gpu = gpu_total;
  for (int slot = 0; slot < 5; ++slot) {
    if (totals.cpu[slot].calls == 0) continue;
    const char* name = RangeTypeName(static_cast<RangeType>(slot));
    table.AddRow(PhaseRow(name, totals, slot, total, gpu_total), slot == 0 ? 0 : 2);
    if (slot == 0) continue;
    other_cpu -= totals.cpu[slot].total;
    other_gpu -= totals.gpu[slot].total;
  }
  TimeStats others_cpu{other_cpu, 0, 0, 0, SafeRatio(other_cpu, total), true};
  TimeStats others_gpu{other_gpu, 0, 0, 0, SafeRatio(other_gpu, gpu_total), true};
  table.AddRow({Cell::Text("Others"), Cell::Dash(), Cell::Stats(others_cpu),
                Cell::Stats(others_gpu), Cell::DashStats(), Cell::DashStats()},
               2);
  table.ending = TableEnding::kNote;
  table.note = {
      "GPU Total is the kernel time launched inside the phase: by calls on its thread, and by",
      "threads with no phase of their own while it is open (PyTorch's autograd threads)",
      "(kernels on different streams are summed, not merged). The ProfileStep row counts",
      "the kernels whose launching call started inside a step, on any thread.",
      "Others = ProfileStep - the phases above; it is negative when phases run outside steps."};
  return table;
}

}  // namespace prof::analyzer
