#include "analyzer/summary/cuda_api_summary.h"

#include <cmath>
#include <optional>

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

void AddCallFigures(const AnalysisContext& window, ApiFigures* api, CopyFigures* copies,
                    HostLaunchCounter* launches) {
  std::optional<CopyCallAdder> copy_adder;
  if (copies != nullptr) copy_adder.emplace(window, copies);
  // The sum runs in a local, in the same order: a store through `api` each call may alias
  // the items, which the compiler would then reload.
  double all_calls_ns = api != nullptr ? api->all_calls_ns : 0;
  // Consecutive calls are mostly of one function (launch after launch): its item, and
  // whether it copies, are kept and found again when the name changes, the only time
  // items can be added (moved).
  ApiItem* item = nullptr;
  bool run_is_copy = false;
  uint64_t launch_count = 0;
  NameId name = 0;
  const int32_t call_count = static_cast<int32_t>(window.model->api_calls.size());
  const ApiCall* calls = window.model->api_calls.data();
  for (int32_t index = 0; index < call_count; ++index) {
    const ApiCall& call = calls[index];
    if (index == 0 || call.name != name) {
      name = call.name;
      if (api != nullptr) item = &api->calls.Get(name);
      run_is_copy = copy_adder && copy_adder->IsCopyCall(name);
    }
    if (run_is_copy) copy_adder->Add(index, call);
    if (launches != nullptr) launch_count += launches->Launched(index, call);
    if (api == nullptr) continue;
    const double duration = static_cast<double>(call.end_ns - call.start_ns);
    item->cpu.Add(duration);
    item->sum_of_squares += duration * duration;
    item->failed += call.failed();
    all_calls_ns += duration;
  }
  if (api != nullptr) api->all_calls_ns = all_calls_ns;
  if (launches != nullptr) launches->AddLaunches(launch_count);
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
