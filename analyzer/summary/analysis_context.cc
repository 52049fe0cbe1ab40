#include "analyzer/summary/analysis_context.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

namespace prof::analyzer {
namespace {

// The host-side span of everything recorded, for traces without steps.
IntervalList SpanOfEvents(const TraceModel& model) {
  uint64_t first = std::numeric_limits<uint64_t>::max();
  uint64_t last = 0;
  auto extend = [&](uint64_t start, uint64_t end) {
    first = std::min(first, start);
    last = std::max(last, end);
  };
  for (const HostRange& range : model.ranges) extend(range.start_ns, range.end_ns);
  for (const ApiCall& call : model.api_calls) extend(call.start_ns, call.end_ns);
  for (const DeviceActivity& activity : model.device_activities)
    extend(activity.start_ns, activity.end_ns);
  for (const NcclCall& call : model.nccl_calls) extend(call.start_ns, call.end_ns);
  if (first >= last) return {};
  return {{first, last}};
}

// FindStep with a memory: launches arrive mostly in time order, so the step of the
// previous one usually holds the next one too and the binary search is skipped. The
// times that give the remembered answer are kept as one half-open span, [the step's
// start, its end or the next step's start if sooner): FindStep's answer there too.
class StepCursor {
 public:
  explicit StepCursor(const AnalysisContext& context) : context_(context) {}
  int Find(uint64_t time_ns) {
    if (time_ns >= from_ns_ && time_ns < to_ns_) return last_;
    const int found = FindStep(context_, time_ns);
    if (found >= 0) Remember(found);
    return found;
  }

 private:
  void Remember(int step) {
    const std::vector<HostRange>& ranges = context_.model->ranges;
    const std::vector<uint32_t>& steps = context_.steps;
    last_ = step;
    from_ns_ = ranges[steps[step]].start_ns;
    to_ns_ = ranges[steps[step]].end_ns;
    if (step + 1 < static_cast<int>(steps.size()))
      to_ns_ = std::min(to_ns_, ranges[steps[step + 1]].start_ns);
  }

  const AnalysisContext& context_;
  int last_ = -1;
  uint64_t from_ns_ = 0;  // empty span until the first find
  uint64_t to_ns_ = 0;
};

// Adds a run of `length` kernels of `device` to the counts (kept sorted by device). The walk
// counts kernels by runs, as consecutive kernels nearly always run on one device: the list
// is searched once a run, not once a kernel.
void AddKernelRun(uint32_t device, size_t length, RecordCounts* counts) {
  if (length == 0) return;
  auto& by_device = counts->kernels_by_device;
  auto at = std::lower_bound(by_device.begin(), by_device.end(), std::make_pair(device, size_t{0}));
  if (at == by_device.end() || at->first != device) at = by_device.insert(at, {device, 0});
  at->second += length;
}

// The one walk over the window's device records: each step's device and kernel time, the
// records counted by kind and device (RecordCounts), and the copy records' indices. The
// sums are kept in locals and stored once: stores through `context` may alias the records
// read, so the compiler would otherwise write them back on every record.
void WalkDeviceRecords(AnalysisContext* context) {
  const TraceModel& model = *context->model;
  // The calls' starts from the tree's packed copy (loaded from the 80-byte calls, a cache
  // miss a record, they were two thirds of this walk), through a local pointer: the
  // counts' stores may alias the vector, which the walk otherwise reloaded every record.
  const uint64_t* call_start = context->tree->call_start.data();
  std::vector<uint64_t> kernel_ns_per_step(context->steps.size(), 0);
  std::vector<uint64_t> device_ns_per_step(context->steps.size(), 0);
  RecordCounts& counts = context->counts;
  decltype(RecordCounts::device_by_kind) device_by_kind = {};
  size_t nccl_kernels = 0;
  uint64_t step_device_ns = 0;
  uint64_t step_kernel_ns = 0;
  StepCursor cursor(*context);
  uint32_t run_device = 0;
  size_t run_length = 0;
  std::vector<uint32_t> copy_records;
  // The records through locals too: the list's growth may write anywhere.
  const DeviceActivity* activities = model.device_activities.data();
  const uint32_t activity_count = static_cast<uint32_t>(model.device_activities.size());
  for (uint32_t index = 0; index < activity_count; ++index) {
    const DeviceActivity& activity = activities[index];
    ++device_by_kind[static_cast<size_t>(activity.kind)];
    if (activity.kind == DeviceKind::kMemcpy || activity.kind == DeviceKind::kMemset)
      copy_records.push_back(index);
    if (activity.kind == DeviceKind::kKernel) {
      if (activity.device != run_device) {
        AddKernelRun(run_device, run_length, &counts);
        run_device = activity.device;
        run_length = 0;
      }
      ++run_length;
      nccl_kernels += activity.nccl;
    }
    if (activity.api_call == kNoIndex || activity.kind == DeviceKind::kSynchronization) continue;
    const int step = cursor.Find(call_start[activity.api_call]);
    if (step < 0) continue;
    const uint64_t duration = activity.end_ns - activity.start_ns;
    device_ns_per_step[step] += duration;
    step_device_ns += duration;
    if (activity.kind != DeviceKind::kKernel) continue;
    kernel_ns_per_step[step] += duration;
    step_kernel_ns += duration;
  }
  AddKernelRun(run_device, run_length, &counts);
  for (size_t kind = 0; kind < std::size(device_by_kind); ++kind)
    counts.device_by_kind[kind] += device_by_kind[kind];
  counts.nccl_kernels += nccl_kernels;
  context->step_device_ns += step_device_ns;
  context->step_kernel_ns += step_kernel_ns;
  context->kernel_ns_per_step = std::move(kernel_ns_per_step);
  context->device_ns_per_step = std::move(device_ns_per_step);
  context->copy_records = std::move(copy_records);
}

// True when one of the window's files was recorded with no schedule (every step): its
// step 0 then began at the program's start, not at a step boundary.
bool RecordedEveryStep(const TraceModel& model) {
  for (const trace::FileHeader& header : model.headers) {
    const auto schedule = header.config().find("PROF_SCHEDULE");
    if (schedule != header.config().end() && schedule->second == "every step") return true;
  }
  return false;
}

}  // namespace

AnalysisContext MakeAnalysisContext(const TraceModel& model, const RangeTree& tree,
                                    const SummaryOptions& options) {
  AnalysisContext context;
  context.model = &model;
  context.tree = &tree;
  context.options = options;
  IntervalList step_intervals;
  const bool setup_apart = !options.include_setup && RecordedEveryStep(model);
  for (uint32_t i = 0; i < model.ranges.size(); ++i) {
    ++context.counts.ranges_by_type[static_cast<size_t>(model.ranges[i].type)];
    if (model.ranges[i].type != RangeType::kProfileStep) continue;
    if (setup_apart && model.ranges[i].step_number == 0 && context.setup_step == kNoIndex) {
      context.setup_step = static_cast<int32_t>(i);
      continue;
    }
    context.steps.push_back(i);
    step_intervals.push_back({model.ranges[i].start_ns, model.ranges[i].end_ns});
  }
  std::stable_sort(context.steps.begin(), context.steps.end(), [&](uint32_t a, uint32_t b) {
    return model.ranges[a].start_ns < model.ranges[b].start_ns;
  });
  context.has_steps = !context.steps.empty();
  context.window =
      context.has_steps ? MergeIntervals(std::move(step_intervals)) : SpanOfEvents(model);
  context.total_ns = TotalLength(context.window);
  WalkDeviceRecords(&context);
  return context;
}

int FindStep(const AnalysisContext& context, uint64_t time_ns) {
  const std::vector<HostRange>& ranges = context.model->ranges;
  auto after =
      std::upper_bound(context.steps.begin(), context.steps.end(), time_ns,
                       [&](uint64_t t, uint32_t step) { return t < ranges[step].start_ns; });
  // Steps do not overlap in practice; look back a little in case they do.
  for (int back = 0; back < 2 && after != context.steps.begin(); ++back) {
    --after;
    const HostRange& step = ranges[*after];
    if (time_ns >= step.start_ns && time_ns < step.end_ns)
      return static_cast<int>(after - context.steps.begin());
  }
  return -1;
}

double SortValue(SortKey key, const DurationStats& cpu, const DurationStats& gpu) {
  switch (key) {
    case SortKey::kCpuTotal: return cpu.total;
    case SortKey::kCpuAvg: return cpu.Average();
    case SortKey::kCpuMax: return cpu.Max();
    case SortKey::kCpuMin: return cpu.Min();
    case SortKey::kGpuTotal: return gpu.total;
    case SortKey::kGpuAvg: return gpu.Average();
    case SortKey::kGpuMax: return gpu.Max();
    case SortKey::kGpuMin: return gpu.Min();
  }
  return 0;
}

bool SortsAscending(SortKey key) { return key == SortKey::kCpuMin || key == SortKey::kGpuMin; }

}  // namespace prof::analyzer
