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
#include "analyzer/summary/memory_manipulation_summary.h"
#include "analyzer/summary/memory_sample_summary.h"
#include "analyzer/summary/memory_summary.h"
#include "analyzer/summary/model_summary.h"
#include "analyzer/summary/nccl_summary.h"
#include "analyzer/summary/operator_summary.h"
#include "analyzer/summary/overview_summary.h"
#include "analyzer/summary/perf_summary.h"
#include "analyzer/summary/setup_summary.h"
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
    {"job", "jobview", View::kJob},
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

std::string ViewListOf(const ViewSet& views) {
  std::string list;
  for (const ViewName& name : kViewNames) {
    if (views.count(name.view)) absl::StrAppend(&list, list.empty() ? "" : ",", name.name);
  }
  return list;
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
      for (const ViewName& name : kViewNames)
        absl::StrAppend(&known, known.empty() ? "" : ",", name.name);
      return absl::InvalidArgumentError(
          absl::StrCat("unknown view '", part, "' (known: ", known, ")"));
    }
  }
  if (views.empty()) return absl::InvalidArgumentError("--views needs at least one view");
  return views;
}

struct ProcessAnalysis::Figures {
  ProcessIdentity identity;
  std::vector<std::string> files;
  uint64_t event_count = 0;
  size_t windows = 0;
  StringPool names;  // every window's names; the figures' NameIds point here
  DataQuality quality;
  RunTotals totals;
  DeviceFigures device;
  OverviewFigures overview;
  ModelPhaseTotals phases;
  CommunicationTotals communication;
  OperatorFigures operators;
  KernelFigures kernels;
  UserRangeFigures user_ranges;
  CopyFigures copies;
  PerfFigures perf;
  ApiFigures api;
  NcclFigures nccl;
  MemoryFigures memory;
  MemorySampleFigures memory_samples;
  SetupFigures setup;
  CollectiveTable collectives;
  WindowCarry carry;
};

namespace {

// Rewrites the window's name ids into the process's pool; when every id is already its
// own (a first window's, or windows named alike) the walk over the records is skipped. A
// file's slices each hold their own names (window_slicer.h), so theirs are walked: a
// slice is small and was just written, its records still in the cache.
void RemapNames(StringPool* process_names, TraceModel* window) {
  std::vector<NameId> remap(window->names.size());
  bool same = true;
  for (NameId id = 0; id < window->names.size(); ++id) {
    remap[id] = process_names->Intern(window->names.Get(id));
    same &= remap[id] == id;
  }
  if (same) return;
  for (HostRange& range : window->ranges) {
    range.name = remap[range.name];
    range.shapes = remap[range.shapes];
    range.dtypes = remap[range.dtypes];
    range.source = remap[range.source];
  }
  for (ApiCall& call : window->api_calls) call.name = remap[call.name];
  for (KernelLaunch& launch : window->kernel_launches) launch.name = remap[launch.name];
  for (DeviceActivity& activity : window->device_activities) activity.name = remap[activity.name];
  for (auto& entry : window->thread_names) entry.second = remap[entry.second];
}

}  // namespace

ProcessAnalysis::ProcessAnalysis(const SummaryOptions& options, const ViewSet& views)
    : options_(options), views_(views), figures_(std::make_unique<Figures>()) {}
ProcessAnalysis::~ProcessAnalysis() = default;
ProcessAnalysis::ProcessAnalysis(ProcessAnalysis&&) = default;
ProcessAnalysis& ProcessAnalysis::operator=(ProcessAnalysis&&) = default;

void ProcessAnalysis::AddWindow(TraceModel window) {
  Figures& figures = *figures_;
  if (figures.windows++ == 0) {
    figures.identity = window.identity;
    figures.names = std::move(window.names);  // the first window's ids stay as they are
  } else {
    RemapNames(&figures.names, &window);
  }
  // The window reads names through its model; lend it the process's pool meanwhile.
  std::swap(window.names, figures.names);
  const RangeTree tree = BuildRangeTree(&window);
  const AnalysisContext context = MakeAnalysisContext(window, tree, options_);
  auto wants = [&](View view) { return views_.count(view) > 0; };
  figures.totals.Add(context);
  AddSetupFigures(context, &figures.setup);
  // Always: the Data quality section counts unpaired frees, the rank table needs these.
  AddMemoryFigures(context, &figures.memory);
  if (wants(View::kMemory)) AddMemorySampleFigures(context, &figures.memory_samples);
  AddCollectiveRecords(context,
                       &figures.collectives);  // always: the job view is the default past 8 ranks
  // Before the device unions, so that the host unions' lists are freed before those are
  // made (each carry kind is its own: the order changes no figure).
  if (wants(View::kOverview)) AddOverviewHostFigures(context, &figures.carry, &figures.overview);
  // The device unions before the communication: its computation union is often theirs.
  std::optional<DeviceUnions> device_unions;
  if (wants(View::kDevice) || wants(View::kOverview))
    device_unions = ComputeDeviceUnions(context, &figures.carry, wants(View::kOverview));
  const DeviceUnions* const unions = device_unions ? &*device_unions : nullptr;
  figures.communication.Add(ComputeCommunication(context, unions, &figures.carry));
  if (wants(View::kDevice)) AddDeviceFigures(context, *unions, &figures.device);
  if (wants(View::kOverview)) AddOverviewDeviceFigures(*unions, &figures.overview);
  device_unions.reset();  // its lists are as long as the window's kernels
  if (wants(View::kModel) || wants(View::kOverview)) AddModelPhaseTotals(context, &figures.phases);
  if (wants(View::kOperator)) AddOperatorFigures(context, &figures.operators);
  std::optional<HostLaunchCounter> launches;
  if (wants(View::kKernel) || wants(View::kDataQuality))
    launches.emplace(*context.model, AddKernelFigures(context, &figures.kernels), &figures.kernels);
  if (wants(View::kMemoryManipulation) || wants(View::kUserDefined)) {
    AddUserRangeFigures(context, &figures.user_ranges);
  }
  if (wants(View::kPerf)) AddPerfFigures(context, &figures.perf);
  if (wants(View::kCudaApi) || wants(View::kMemoryManipulation) || launches) {
    AddCallFigures(context, wants(View::kCudaApi) ? &figures.api : nullptr,
                   wants(View::kMemoryManipulation) ? &figures.copies : nullptr,
                   launches ? &*launches : nullptr);
  }
  if (wants(View::kNccl)) AddNcclFigures(context, &figures.nccl);
  figures.quality.Add(window.quality);
  figures.files.insert(figures.files.end(), window.files.begin(), window.files.end());
  figures.event_count += window.event_count;
  figures.carry.NextWindow();
  std::swap(window.names, figures.names);
}

ProcessReport ProcessAnalysis::Finish() && {
  Figures& figures = *figures_;
  figures.quality.frees_without_allocation = figures.memory.live.unmatched_frees();
  ProcessReport report;
  report.identity = figures.identity;
  report.files = figures.files;
  report.event_count = figures.event_count;
  report.step_count = figures.totals.step_count;
  report.total_ns = figures.totals.total_ns;
  report.communication_ns = figures.communication.communication_ns;
  report.computation_ns = figures.communication.computation_ns;
  report.overlap_ns = figures.communication.overlap_ns;
  report.collectives = std::move(figures.collectives);
  const LaunchCoverage launches{figures.kernels.launches, figures.kernels.unanswered_launches};
  report.quality_perfect = QualityPerfect(figures.quality, launches);
  report.quality_counts = QualityCountsOf(figures.quality, launches);

  const RenderContext context{&figures.names, &figures.totals, options_};
  std::vector<SummaryTable>& tables = report.tables;
  auto wants = [&](View view) { return views_.count(view) > 0; };
  if (wants(View::kModel) || wants(View::kOverview))
    AddIfPresent(SetupSummary(figures.setup), &tables);
  if (wants(View::kDevice)) AddIfPresent(DeviceSummary(figures.device, context), &tables);
  if (wants(View::kOverview)) {
    AddIfPresent(OverviewSummary(figures.overview, figures.phases, figures.communication, context),
                 &tables);
  }
  if (wants(View::kModel)) AddIfPresent(ModelSummary(figures.phases, context), &tables);
  if (wants(View::kDistributed))
    AddIfPresent(DistributionSummary(figures.communication, context), &tables);
  if (wants(View::kOperator)) AddIfPresent(OperatorSummary(figures.operators, context), &tables);
  if (wants(View::kKernel)) {
    AddIfPresent(KernelSummary(figures.kernels, context), &tables);
    AddIfPresent(KernelLaunchSummary(figures.kernels, context), &tables);
  }
  if (wants(View::kMemoryManipulation))
    AddIfPresent(MemoryManipulationSummary(figures.copies, figures.user_ranges, context), &tables);
  if (wants(View::kUserDefined))
    AddIfPresent(UserDefinedSummary(figures.user_ranges, context), &tables);
  if (wants(View::kPerf)) AddIfPresent(PerfSummary(figures.perf, context), &tables);
  if (wants(View::kCudaApi)) AddIfPresent(CudaApiSummary(figures.api, context), &tables);
  if (wants(View::kNccl)) AddIfPresent(NcclSummary(figures.nccl), &tables);
  if (wants(View::kMemory)) {
    for (SummaryTable& table : MemorySummaries(figures.memory, context))
      AddIfPresent(std::move(table), &tables);
    for (SummaryTable& table : MemorySampleSummaries(figures.memory_samples)) {
      AddIfPresent(std::move(table), &tables);
    }
  }
  if (wants(View::kDataQuality))
    AddIfPresent(DataQualitySummary(figures.quality, launches), &tables);
  return report;
}

ProcessReport BuildProcessReport(TraceModel model, const SummaryOptions& options,
                                 const ViewSet& views) {
  ProcessAnalysis analysis(options, views);
  analysis.AddWindow(std::move(model));
  return std::move(analysis).Finish();
}

}  // namespace prof::analyzer
