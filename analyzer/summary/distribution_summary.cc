#include "analyzer/summary/distribution_summary.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "analyzer/summary/name_test.h"

namespace prof::analyzer {
namespace {

uint64_t DistinctCount(IntervalList intervals) {
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) {
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });
  return std::unique(intervals.begin(), intervals.end()) - intervals.begin();
}

}  // namespace

bool IsCommunicationOperatorName(absl::string_view name) {
  // ATen operators compute on tensors; PyTorch's collectives are c10d:: and nccl: names.
  if (absl::StartsWith(name, "aten::")) return false;
  const std::string lower = absl::AsciiStrToLower(name);
  // Shape operators of paddle and PyTorch that say "broadcast" and communicate nothing.
  for (const char* shape : {"broadcast_tensors", "broadcast_to", "broadcast_shape"}) {
    if (absl::StrContains(lower, shape)) return false;
  }
  for (const char* pattern : {"allreduce", "all_reduce", "broadcast", "allgather", "all_gather",
                              "reducescatter", "reduce_scatter", "alltoall", "all_to_all", "rpc"}) {
    if (absl::StrContains(lower, pattern)) return true;
  }
  return false;
}

namespace {

// The host's communication: NCCL calls (but group marks) and communication operators.
IntervalList HostCommunication(const TraceModel& model) {
  IntervalList host;
  for (const NcclCall& call : model.nccl_calls) {
    if (call.operation == schema::NCCL_OPERATION_GROUP_START ||
        call.operation == schema::NCCL_OPERATION_GROUP_END) {
      continue;
    }
    host.push_back({call.start_ns, call.end_ns});
  }
  // The name test lowercases and searches ten patterns: once per name, not per range.
  NameTest<IsCommunicationOperatorName> is_communication(model.names);
  for (const HostRange& range : model.ranges) {
    if (range.type != RangeType::kOperator) continue;
    if (is_communication(range.name)) host.push_back({range.start_ns, range.end_ns});
  }
  return host;
}

// The window's kernels, NCCL ones into `gpu`, the others into `computation` (null: not
// wanted, the walk then stops when there are no NCCL kernels).
void SplitKernels(const AnalysisContext& context, IntervalList* gpu, IntervalList* computation) {
  const size_t nccl_kernels = context.counts.nccl_kernels;
  if (computation == nullptr && nccl_kernels == 0) return;
  // Reserved at their exact sizes (counted by the context's walk): millions of kernels,
  // written once rather than copied as the lists double.
  gpu->reserve(nccl_kernels);
  if (computation != nullptr)
    computation->reserve(context.counts.Device(DeviceKind::kKernel) - nccl_kernels);
  for (const DeviceActivity& activity : context.model->device_activities) {
    if (activity.kind != DeviceKind::kKernel) continue;
    if (activity.nccl) {
      gpu->push_back({activity.start_ns, activity.end_ns});
    } else if (computation != nullptr) {
      computation->push_back({activity.start_ns, activity.end_ns});
    }
  }
}

}  // namespace

CommunicationFigures ComputeCommunication(const AnalysisContext& context,
                                          const DeviceUnions* device_unions, WindowCarry* carry) {
  // Without NCCL kernels the computation union is the union of all kernels, which the
  // device unions merged already, when the two carry the same work in.
  const bool computation_from_device_unions =
      device_unions != nullptr && context.counts.nccl_kernels == 0 &&
      carry->CarriesLike(UnionKind::kComputation, UnionKind::kKernelsByDevice);
  IntervalList host = HostCommunication(*context.model), gpu, computation;
  SplitKernels(context, &gpu, computation_from_device_unions ? nullptr : &computation);
  CommunicationFigures figures;
  figures.host_calls = DistinctCount(host);
  figures.gpu_calls = DistinctCount(gpu);
  figures.host = carry->Union(context, UnionKind::kCommunicationHost, std::move(host)).intervals;
  figures.gpu = carry->Union(context, UnionKind::kCommunicationGpu, std::move(gpu)).intervals;
  figures.communication = UniteIntervals(figures.host, figures.gpu);
  if (computation_from_device_unions) {
    figures.computation = device_unions->AllKernels();
    carry->HandOnLike(UnionKind::kComputation, UnionKind::kKernelsByDevice);
  } else {
    figures.computation =
        carry->Union(context, UnionKind::kComputation, std::move(computation)).intervals;
  }
  figures.overlap = IntersectIntervals(figures.communication, figures.computation);
  return figures;
}

void CommunicationTotals::Add(const CommunicationFigures& window) {
  host_ns += TotalLength(window.host);
  host_calls += window.host_calls;
  gpu_ns += TotalLength(window.gpu);
  gpu_calls += window.gpu_calls;
  communication_ns += TotalLength(window.communication);
  computation_ns += TotalLength(window.computation);
  overlap_ns += TotalLength(window.overlap);
  any_host |= !window.host.empty();
  any_gpu |= !window.gpu.empty();
  any_communication |= !window.communication.empty();
}

std::optional<SummaryTable> DistributionSummary(const CommunicationTotals& totals,
                                                const RenderContext& context) {
  if (!totals.any_communication) return std::nullopt;
  SummaryTable table;
  table.key = "distributed";
  table.title = "Distribution Summary";
  table.columns = {{"Name", "name", 25, false},
                   {"Total Time", "time_ns", 25, false},
                   {"Ratio (%)", "ratio_pct", 25, false}};
  const double total = static_cast<double>(context.totals->total_ns);
  table.AddRow({Cell::Text(context.totals->has_steps ? "ProfileStep" : "Trace span"),
                Cell::Time(total), Cell::Ratio(total > 0 ? 1.0 : 0.0)});
  auto add = [&](const char* name, uint64_t length_ns) {
    const double length = static_cast<double>(length_ns);
    table.AddRow({Cell::Text(name), Cell::Time(length), Cell::Ratio(SafeRatio(length, total))}, 2);
  };
  add("Communication", totals.communication_ns);
  add("Computation", totals.computation_ns);
  add("Overlap", totals.overlap_ns);
  table.ending = TableEnding::kNote;
  table.note = {"Communication: NCCL calls and collective operators on the host, and NCCL kernels",
                "(ncclKernel_* and ncclDevKernel_*) on the GPU, merged.",
                "Computation: all other kernels, merged over streams and devices.",
                "Overlap: the time when communication and computation run at once."};
  return table;
}

}  // namespace prof::analyzer
