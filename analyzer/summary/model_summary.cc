#include "analyzer/summary/model_summary.h"

#include "absl/strings/str_cat.h"

namespace prof::analyzer {
namespace {

bool HasPhaseAncestor(const AnalysisContext& context, uint32_t index) {
  for (int32_t parent = context.tree->parent[index]; parent != kNoIndex;
       parent = context.tree->parent[parent]) {
    if (IsModelPhase(context.model->ranges[parent].type)) return true;
  }
  return false;
}

std::vector<Cell> PhaseRow(const char* name, const DurationStats& cpu, const DurationStats& gpu,
                           double total_ns, double gpu_total_ns) {
  return {Cell::Text(name), Cell::Count(cpu.calls), Cell::Stats(cpu.ToStats(total_ns)),
          Cell::Stats(gpu.ToStats(gpu_total_ns))};
}

}  // namespace

ModelPhaseTotals ComputeModelPhaseTotals(const AnalysisContext& context) {
  ModelPhaseTotals totals;
  const std::vector<HostRange>& ranges = context.model->ranges;
  for (size_t i = 0; i < context.steps.size(); ++i) {
    const HostRange& step = ranges[context.steps[i]];
    totals.cpu[0].Add(step.end_ns - step.start_ns);
    totals.gpu[0].Add(context.kernel_ns_per_step[i]);
  }
  for (uint32_t index : context.tree->preorder) {
    const HostRange& range = ranges[index];
    if (!IsModelPhase(range.type) || HasPhaseAncestor(context, index)) continue;
    const int slot = static_cast<int>(range.type);
    totals.cpu[slot].Add(range.end_ns - range.start_ns);
    totals.gpu[slot].Add(context.tree->kernel_ns[index]);
  }
  return totals;
}

std::optional<SummaryTable> ModelSummary(const AnalysisContext& context) {
  const ModelPhaseTotals totals = ComputeModelPhaseTotals(context);
  int items = 0;
  for (const DurationStats& stats : totals.cpu) items += stats.calls > 0;
  if (items < 2) return std::nullopt;  // paddle needs two distinct items

  SummaryTable table;
  table.key = "model";
  table.title = "Model Summary";
  table.columns = {{"Name", "name", 15, false},
                   {"Calls", "calls", 6},
                   {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
                   {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40}};
  const double total = static_cast<double>(context.total_ns);
  const double gpu_total = static_cast<double>(context.step_kernel_ns);
  double other_cpu = total;
  double other_gpu = gpu_total;
  for (int slot = 0; slot < 5; ++slot) {
    if (totals.cpu[slot].calls == 0) continue;
    const char* name = RangeTypeName(static_cast<RangeType>(slot));
    table.AddRow(PhaseRow(name, totals.cpu[slot], totals.gpu[slot], total, gpu_total),
                 slot == 0 ? 0 : 2);
    if (slot == 0) continue;
    other_cpu -= totals.cpu[slot].total;
    other_gpu -= totals.gpu[slot].total;
  }
  TimeStats others_cpu{other_cpu, 0, 0, 0, SafeRatio(other_cpu, total), true};
  TimeStats others_gpu{other_gpu, 0, 0, 0, SafeRatio(other_gpu, gpu_total), true};
  table.AddRow({Cell::Text("Others"), Cell::Dash(), Cell::Stats(others_cpu), Cell::Stats(others_gpu)}, 2);
  table.ending = TableEnding::kNote;
  table.note = {
      "GPU Total is the kernel time launched by calls inside the phase on the same thread",
      "(kernels on different streams are summed, not merged). The ProfileStep row counts",
      "the kernels whose launching call started inside a step, on any thread.",
      "Others = ProfileStep - the phases above; it is negative when phases run outside steps."};
  return table;
}

}  // namespace prof::analyzer
