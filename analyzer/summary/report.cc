#include "analyzer/summary/report.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/summary/cuda_api_summary.h"
#include "analyzer/summary/data_quality_summary.h"
#include "analyzer/summary/device_summary.h"
#include "analyzer/summary/distribution_summary.h"
#include "analyzer/summary/kernel_summary.h"
#include "analyzer/summary/memory_summary.h"
#include "analyzer/summary/model_summary.h"
#include "analyzer/summary/nccl_summary.h"
#include "analyzer/summary/operator_summary.h"
#include "analyzer/summary/overview_summary.h"
#include "analyzer/summary/perf_summary.h"
#include "analyzer/summary/user_range_summaries.h"
#include "analyzer/tree/range_tree.h"

namespace prof::analyzer {
namespace {

struct ViewName {
  const char* name;
  const char* paddle_name;
  View view;
};

constexpr ViewName kViewNames[] = {
    {"device", "deviceview", View::kDevice},
    {"overview", "overview", View::kOverview},
    {"model", "modelview", View::kModel},
    {"distributed", "distributedview", View::kDistributed},
    {"operator", "operatorview", View::kOperator},
    {"kernel", "kernelview", View::kKernel},
    {"memory_manipulation", "memorymanipulationview", View::kMemoryManipulation},
    {"userdefined", "udfview", View::kUserDefined},
    {"perf", "perfview", View::kPerf},
    {"cuda_api", "cudaapiview", View::kCudaApi},
    {"nccl", "ncclview", View::kNccl},
    {"memory", "memoryview", View::kMemory},
    {"data_quality", "dataqualityview", View::kDataQuality},
};

void AddIfPresent(std::optional<SummaryTable> table, std::vector<SummaryTable>* tables) {
  if (table && !table->rows.empty()) tables->push_back(std::move(*table));
}

}  // namespace

ViewSet AllViews() {
  ViewSet views;
  for (const ViewName& name : kViewNames) views.insert(name.view);
  return views;
}

absl::StatusOr<ViewSet> ParseViews(const std::string& list) {
  ViewSet views;
  for (absl::string_view part : absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    const std::string wanted = absl::AsciiStrToLower(absl::StripAsciiWhitespace(part));
    bool found = false;
    for (const ViewName& name : kViewNames) {
      if (wanted == name.name || wanted == name.paddle_name) {
        views.insert(name.view);
        found = true;
      }
    }
    if (!found) {
      std::string known;
      for (const ViewName& name : kViewNames) absl::StrAppend(&known, known.empty() ? "" : ",", name.name);
      return absl::InvalidArgumentError(absl::StrCat("unknown view '", part, "' (known: ", known, ")"));
    }
  }
  if (views.empty()) return absl::InvalidArgumentError("--views needs at least one view");
  return views;
}

ProcessReport BuildProcessReport(TraceModel model, const SummaryOptions& options, const ViewSet& views) {
  const RangeTree tree = BuildRangeTree(&model);
  const AnalysisContext context = MakeAnalysisContext(model, tree, options);
  const MemoryFigures memory = ComputeMemoryFigures(context);
  model.quality.frees_without_allocation = memory.frees_without_allocation;
  const CommunicationFigures communication = ComputeCommunication(context);

  ProcessReport report;
  report.identity = model.identity;
  report.files = model.files;
  report.event_count = model.event_count;
  report.step_count = context.steps.size();
  report.total_ns = context.total_ns;
  report.communication_ns = TotalLength(communication.communication);
  report.computation_ns = TotalLength(communication.computation);
  report.overlap_ns = TotalLength(communication.overlap);

  std::vector<SummaryTable>& tables = report.tables;
  auto wants = [&](View view) { return views.count(view) > 0; };
  if (wants(View::kDevice)) AddIfPresent(DeviceSummary(context), &tables);
  if (wants(View::kOverview)) AddIfPresent(OverviewSummary(context, communication), &tables);
  if (wants(View::kModel)) AddIfPresent(ModelSummary(context), &tables);
  if (wants(View::kDistributed)) AddIfPresent(DistributionSummary(context, communication), &tables);
  if (wants(View::kOperator)) AddIfPresent(OperatorSummary(context), &tables);
  if (wants(View::kKernel)) AddIfPresent(KernelSummary(context), &tables);
  if (wants(View::kMemoryManipulation)) AddIfPresent(MemoryManipulationSummary(context), &tables);
  if (wants(View::kUserDefined)) AddIfPresent(UserDefinedSummary(context), &tables);
  if (wants(View::kPerf)) AddIfPresent(PerfSummary(context), &tables);
  if (wants(View::kCudaApi)) AddIfPresent(CudaApiSummary(context), &tables);
  if (wants(View::kNccl)) AddIfPresent(NcclSummary(context), &tables);
  if (wants(View::kMemory)) {
    for (SummaryTable& table : MemorySummaries(context, memory)) AddIfPresent(std::move(table), &tables);
  }
  if (wants(View::kDataQuality)) AddIfPresent(DataQualitySummary(model.quality), &tables);
  return report;
}

}  // namespace prof::analyzer
