#include "analyzer/summary/kernel_summary.h"

#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

SortKey KernelSortKey(SortKey key) {
  switch (key) {
    case SortKey::kGpuAvg:
    case SortKey::kGpuMax:
    case SortKey::kGpuMin: return key;
    default: return SortKey::kGpuTotal;
  }
}

}  // namespace

void AddKernelFigures(const AnalysisContext& window, KernelFigures* figures) {
  for (const DeviceActivity& activity : window.model->device_activities) {
    if (activity.kind != DeviceKind::kKernel) continue;
    const double duration = static_cast<double>(activity.end_ns - activity.start_ns);
    figures->kernels.Get(activity.name).gpu.Add(duration);
    figures->all_kernels_ns += duration;
  }
}

std::optional<SummaryTable> KernelSummary(const KernelFigures& figures,
                                          const RenderContext& context) {
  const NamedItems<NamedItem>& kernels = figures.kernels;
  if (kernels.empty()) return std::nullopt;
  SummaryTable table;
  table.key = "kernel";
  table.title = "Kernel Summary";
  table.columns = {{"Name", "name", 90, false},
                   {"Calls", "calls", 6},
                   {"GPU Total / Avg / Max / Min / Ratio(%)", "gpu", 40}};
  std::vector<size_t> order =
      SortedOrder(kernels.items(), KernelSortKey(context.options.sorted_by));
  KeepTop(context.options.top, &order);
  for (size_t index : order) {
    const NamedItem& item = kernels.items()[index];
    table.AddRow({Cell::Name(std::string(context.names->Get(item.name)), 90, /*kernel_name=*/true),
                  Cell::Count(item.gpu.calls),
                  Cell::Stats(item.gpu.ToStats(figures.all_kernels_ns))});
  }
  return table;
}

}  // namespace prof::analyzer
