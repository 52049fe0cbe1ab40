#include "analyzer/summary/cuda_api_summary.h"

#include <cmath>

#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

SortKey ApiSortKey(SortKey key) {
  switch (key) {
    case SortKey::kCpuAvg:
    case SortKey::kCpuMax:
    case SortKey::kCpuMin: return key;
    default: return SortKey::kCpuTotal;
  }
}

double StandardDeviation(const ApiItem& item) {
  if (item.cpu.calls < 2) return 0;
  const double mean = item.cpu.Average();
  const double variance = item.sum_of_squares / item.cpu.calls - mean * mean;
  return variance > 0 ? std::sqrt(variance) : 0;
}

}  // namespace

void AddApiFigures(const AnalysisContext& window, ApiFigures* figures) {
  // The sum runs in a local, in the same order: a store through `figures` each call may
  // alias the items, which the compiler would then reload.
  double all_calls_ns = figures->all_calls_ns;
  // Consecutive calls are mostly of one function (launch after launch): its item is kept
  // and looked up again when the name changes, the only time items can be added (moved).
  ApiItem* item = nullptr;
  NameId name = 0;
  for (const ApiCall& call : window.model->api_calls) {
    if (item == nullptr || call.name != name) {
      item = &figures->calls.Get(call.name);
      name = call.name;
    }
    const double duration = static_cast<double>(call.end_ns - call.start_ns);
    item->cpu.Add(duration);
    item->sum_of_squares += duration * duration;
    item->failed += call.failed;
    all_calls_ns += duration;
  }
  figures->all_calls_ns = all_calls_ns;
}

std::optional<SummaryTable> CudaApiSummary(const ApiFigures& figures,
                                           const RenderContext& context) {
  const NamedItems<ApiItem>& items = figures.calls;
  if (items.empty()) return std::nullopt;
  SummaryTable table;
  table.key = "cuda_api";
  table.title = "CUDA API Summary";
  table.columns = {{"Name", "name", 30},
                   {"Calls", "calls", 6},
                   {"Errors", "errors", 6},
                   {"CPU Total / Avg / Max / Min / Ratio(%)", "cpu", 40},
                   {"StdDev", "stddev_ns", 10}};
  std::vector<size_t> order = SortedOrder(items.items(), ApiSortKey(context.options.sorted_by));
  KeepTop(context.options.top, &order);
  for (size_t index : order) {
    const ApiItem& item = items.items()[index];
    table.AddRow({Cell::Text(std::string(context.names->Get(item.name))),
                  Cell::Count(item.cpu.calls), Cell::Count(item.failed),
                  Cell::Stats(item.cpu.ToStats(figures.all_calls_ns)),
                  Cell::Time(StandardDeviation(item))});
  }
  table.ending = TableEnding::kNote;
  table.note = {
      "Host time inside each CUDA runtime or driver API call, all calls of the trace.",
      "Ratio: share of the time of all API calls. Errors: calls that did not return success."};
  return table;
}

}  // namespace prof::analyzer
