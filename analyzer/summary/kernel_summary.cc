#include "analyzer/summary/kernel_summary.h"

#include <algorithm>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
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

HostLaunchKey KeyOf(const KernelLaunch& launch) {
  return {launch.name,     launch.grid[0],  launch.grid[1],  launch.grid[2],
          launch.block[0], launch.block[1], launch.block[2], launch.dynamic_shared_memory};
}

// "[256, 1, 1]", as the timeline exports write a kernel's grid and block.
std::string Dim3Text(uint32_t x, uint32_t y, uint32_t z) {
  return absl::StrCat("[", x, ", ", y, ", ", z, "]");
}

}  // namespace

HostLaunchCounter::HostLaunchCounter(const TraceModel& model, std::vector<uint8_t> answered,
                                     KernelFigures* figures)
    : model_(model),
      answered_(std::move(answered)),
      launch_count_(model.kernel_launches.size()),
      figures_(figures) {}

ABSL_ATTRIBUTE_NOINLINE void HostLaunchCounter::AddUnanswered(int32_t launch) {
  ++figures_->unanswered_launches;
  const HostLaunchKey key = KeyOf(model_.kernel_launches[launch]);
  auto [it, inserted] = figures_->unanswered.try_emplace(key, 0);
  if (inserted) figures_->unanswered_order.push_back(key);
  ++it->second;
}

std::vector<uint8_t> AddKernelFigures(const AnalysisContext& window, KernelFigures* figures) {
  const TraceModel& model = *window.model;
  // One walk over the device records: each kernel's time by name, and which calls a kernel
  // record answered (for the launches' count in the walk over the calls). A byte per call, not a
  // bit: a bit costs a shift and mask at each of the millions of marks and tests. The sum runs in a
  // local, in the same order: a store through `figures` each record may alias the items, which the
  // compiler would then reload.
  std::vector<uint8_t> answered(model.api_calls.size(), 0);
  double all_kernels_ns = figures->all_kernels_ns;
  NamedItemsCursor<NamedItem> kernels(&figures->kernels);
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.kind != DeviceKind::kKernel) continue;
    if (activity.api_call != kNoIndex) answered[activity.api_call] = 1;
    // The item first: a double computed before it would be kept on the stack across the
    // call that adds a new name (which clobbers every floating-point register).
    NamedItem& kernel = kernels.Get(activity.name);
    const double duration = static_cast<double>(activity.end_ns - activity.start_ns);
    kernel.gpu.Add(duration);
    all_kernels_ns += duration;
  }
  figures->all_kernels_ns = all_kernels_ns;
  return answered;
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

std::optional<SummaryTable> KernelLaunchSummary(const KernelFigures& figures,
                                                const RenderContext& context) {
  if (figures.unanswered_launches == 0) return std::nullopt;
  SummaryTable table;
  table.key = "kernel_launch";
  table.title = "Kernel Launch Summary (host side)";
  table.time_unit_line = false;
  table.preamble = {absl::StrCat(
      "No device times: ", figures.unanswered_launches, " of ", figures.launches,
      " kernel launches have no device kernel record (CUPTI absent, disabled or unsupported, "
      "or its records lost); grid, block and dynamic shared memory as the launching call "
      "passed them.")};
  table.columns = {{"Name", "name", 90, false},
                   {"Calls", "calls", 6},
                   {"Grid", "grid", 16},
                   {"Block", "block", 16},
                   {"Dynamic Shared Memory (B)", "dynamic_shared_memory", 25}};
  std::vector<HostLaunchKey> order = figures.unanswered_order;
  std::stable_sort(order.begin(), order.end(), [&](const HostLaunchKey& a, const HostLaunchKey& b) {
    return figures.unanswered.at(a) > figures.unanswered.at(b);
  });
  if (context.options.top > 0 && order.size() > static_cast<size_t>(context.options.top))
    order.resize(context.options.top);
  for (const HostLaunchKey& key : order) {
    table.AddRow({Cell::Name(std::string(context.names->Get(key[0])), 90, /*kernel_name=*/true),
                  Cell::Count(static_cast<double>(figures.unanswered.at(key))),
                  Cell::Text(Dim3Text(key[1], key[2], key[3])),
                  Cell::Text(Dim3Text(key[4], key[5], key[6])), Cell::Count(key[7])});
  }
  return table;
}

}  // namespace prof::analyzer
