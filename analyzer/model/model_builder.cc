#include "analyzer/model/model_builder.h"

#include <algorithm>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "analyzer/model/clock_alignment.h"
#include "analyzer/model/correlation.h"
#include "analyzer/model/enum_names.h"
#include "proto/schema_names.h"

namespace prof::analyzer {
namespace {

// Model phases are recognized by name, as paddle's Python lane names them.
RangeType PhaseType(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (absl::StartsWith(lower, "dataloader")) return RangeType::kDataloader;
  if (absl::StartsWith(lower, "forward")) return RangeType::kForward;
  if (absl::StartsWith(lower, "backward")) return RangeType::kBackward;
  if (absl::StartsWith(lower, "optimiz")) return RangeType::kOptimization;
  return RangeType::kUserDefined;
}

// NVTX ranges: a range named like a model phase is that phase (programs that cannot call
// the agent mark phases with NVTX); any other NVTX range is shown as an operator, which is
// what framework NVTX annotations (PyTorch's emit_nvtx, Paddle's, Megatron's) mark.
RangeType NvtxRangeType(absl::string_view name) {
  const RangeType phase = PhaseType(name);
  return phase == RangeType::kUserDefined ? RangeType::kOperator : phase;
}

// Appends with a growth of 4x (2x past 1 GiB) instead of the library's 2x: a record
// vector of millions is copied to fresh pages each time it grows, and on a 10M-event file
// those copies and page faults were a quarter of the analysis. The unused tail costs
// address space only (large blocks are mapped on demand; pages never written are never
// touched), and the 1 GiB bound keeps that bounded too.
template <typename T>
ABSL_ATTRIBUTE_NOINLINE void GrowFull(std::vector<T>* records) {
  constexpr size_t kQuadrupleBelow = (size_t{1} << 30) / sizeof(T);
  const size_t size = std::max<size_t>(records->size(), 256);
  records->reserve(size < kQuadrupleBelow ? 4 * size : 2 * size);
}

// Inline, the reserving out of line: it runs once per record, and reserves almost never.
template <typename T>
void Grow(std::vector<T>* records) {
  if (__builtin_expect(records->size() == records->capacity(), 0)) GrowFull(records);
}

template <typename T>
void Append(std::vector<T>* records, T record) {
  Grow(records);
  records->push_back(std::move(record));
}

// A new default record at the end, filled in place: the most numerous records are written
// once, not built on the stack and copied.
template <typename T>
T& AppendNew(std::vector<T>* records) {
  Grow(records);
  return records->emplace_back();
}

}  // namespace

ModelBuilder::ModelBuilder(FileDictionary* dictionary, const trace::FileHeader& header)
    : dictionary_(dictionary),
      name_of_file_id_(kUnresolved),
      kernel_name_of_config_(KernelName{0, false, kNoIndex}),
      stack_name_of_id_(kUnresolved),
      operator_name_parts_(OperatorNameParts{kUnresolved, {}, kUnresolved}) {
  model_.identity.host = header.host_name();
  model_.identity.pid = header.pid();
  model_.identity.rank = header.rank();
  model_.identity.world_size = header.world_size();
  model_.identity.worker_name = header.worker_name();
  anchors_.assign(header.clock_anchors().begin(), header.clock_anchors().end());
  cpu_usage_.assign(header.cpu_usage().begin(), header.cpu_usage().end());
  model_.headers.push_back(header);
}

ModelBuilder::ModelBuilder(FileDictionary* dictionary, const trace::FileHeader& header,
                           TraceModel earlier)
    : ModelBuilder(dictionary, header) {
  earlier.identity = std::move(model_.identity);  // the same file's
  if (earlier.headers.empty()) earlier.headers = std::move(model_.headers);
  model_ = std::move(earlier);
}

// Name, StackName and KernelNameOf run per event and almost always find their id cached:
// that check stays small enough to inline, and the first use's work is out of line.
inline NameId ModelBuilder::Name(StringId file_id) {
  if (file_id == 0) return 0;
  NameId& name = name_of_file_id_.Slot(file_id);
  if (__builtin_expect(name == kUnresolved, 0)) name = ResolveName(file_id);
  return name;
}

inline NameId ModelBuilder::StackName(CallStackId id) {
  if (id == 0) return 0;
  NameId& name = stack_name_of_id_.Slot(id);
  if (__builtin_expect(name == kUnresolved, 0)) name = ResolveStackName(id);
  return name;
}

void ModelBuilder::CountUnknownClock(schema::ClockDomain clock) {
  Known(trace::ClockDomain_IsValid(clock), "clock domain");  // read as the host clock
}

void ModelBuilder::CountUnknown(const char* field) { ++model_.quality.unknown_enum_values[field]; }

void ModelBuilder::OnApiCall(const ApiCallEvent& event) {
  ApiCall& call = AppendNew(&model_.api_calls);
  call.thread_id = event.thread_id;
  call.start_ns = event.start_ns;
  call.end_ns = event.start_ns + event.duration_ns;
  call.correlation_id = event.correlation_id;
  call.name = Name(event.name);
  call.driver = event.domain == schema::API_DOMAIN_DRIVER;
  // The generated IsValid functions are out of line: the usual values skip the call.
  Known(event.domain == schema::API_DOMAIN_RUNTIME || call.driver ||
            trace::ApiDomain_IsValid(event.domain),
        "API domain");
  call.failed = event.status != 0;
  call.cupti_clock = HostClock(event.clock);
  call.status = event.status;
  call.has_stream = event.stream.has_value();
  call.stream = event.stream.value_or(0);
  call.bytes = event.bytes;
  call.copy_kind =
      event.copy_kind == schema::COPY_KIND_UNKNOWN || trace::CopyKind_IsValid(event.copy_kind)
          ? event.copy_kind
          : schema::COPY_KIND_UNKNOWN;
  call.call_stack = StackName(event.call_stack);
  if (event.kernel_config != 0) call.launch = KernelNameOf(event.kernel_config).launch;
  ++model_.event_count;
}

void ModelBuilder::OnHostRange(const HostRangeEvent& event) {
  HostRange& range = AppendNew(&model_.ranges);
  range.thread_id = event.thread_id;
  range.start_ns = event.start_ns;
  range.end_ns = event.start_ns + event.duration_ns;
  range.name = Name(event.name);
  range.cupti_clock = HostClock(event.clock);
  switch (event.kind) {
    case schema::RANGE_KIND_MODEL_PHASE:
      range.type = PhaseType(model_.names.Get(range.name));
      break;
    case schema::RANGE_KIND_OPERATOR: range.type = RangeType::kOperator; break;
    case schema::RANGE_KIND_USER: range.type = RangeType::kUserDefined; break;
    case schema::RANGE_KIND_MARK: range.type = RangeType::kMark; break;
    default:
      // Only here: the kinds above are valid, and the generated IsValid is out of line.
      Known(trace::RangeKind_IsValid(event.kind), "range kind");
      range.type = NvtxRangeType(model_.names.Get(range.name));
      break;
  }
  range.shapes = Name(event.shapes);
  range.dtypes = Name(event.dtypes);
  range.source = Name(event.source);
  if (range.type == RangeType::kOperator) NormalizeOperatorName(&range);
  ++model_.event_count;
}

void ModelBuilder::NormalizeOperatorName(HostRange* range) {
  OperatorNameParts& parts = operator_name_parts_.Slot(range->name);
  if (__builtin_expect(parts.name == kUnresolved, 0)) return SplitOperatorName(range, &parts);
  if (parts.name == range->name) return;  // not of the emit_nvtx form
  if (range->shapes == 0 && !parts.shapes.empty()) {
    if (parts.shapes_id == kUnresolved) parts.shapes_id = model_.names.Intern(parts.shapes);
    range->shapes = parts.shapes_id;
  }
  range->name = parts.name;
}

void ModelBuilder::OnStep(const StepEvent& event) {
  HostRange range;
  range.thread_id = event.thread_id;
  range.start_ns = event.start_ns;
  range.end_ns = event.start_ns + event.duration_ns;
  range.name = model_.names.Intern(absl::StrCat("ProfileStep#", event.step_number));
  range.type = RangeType::kProfileStep;
  range.step_number = event.step_number;
  range.sample_count = event.sample_count;
  range.cupti_clock = HostClock(event.clock);
  Append(&model_.ranges, range);
  ++model_.event_count;
}

void ModelBuilder::OnNcclCall(const NcclCallEvent& event) {
  NcclCall call;
  call.thread_id = event.thread_id;
  call.start_ns = event.start_ns;
  call.end_ns = event.start_ns + event.duration_ns;
  call.bytes = event.bytes;
  call.operation = event.operation;
  Known(trace::NcclOperation_IsValid(event.operation), "NCCL operation");
  call.cupti_clock = HostClock(event.clock);
  if (const CommunicatorValue* comm = dictionary_->Communicator(event.communicator)) {
    call.comm_hash = comm->comm_hash;
    call.rank_count = comm->rank_count;
    call.comm_rank = comm->rank;
  }
  call.count = event.count;
  call.data_type = event.data_type;
  call.stream = event.stream;
  call.sequence_number = event.sequence_number;
  call.has_root_or_peer = event.root_or_peer.has_value();
  call.root_or_peer = event.root_or_peer.value_or(0);
  call.has_reduction_op = event.reduction_op.has_value();
  call.reduction_op = event.reduction_op.value_or(0);
  Append(&model_.nccl_calls, call);
  ++model_.event_count;
}

void ModelBuilder::OnMemory(const MemoryEvent& event) {
  MemoryRecord record;
  record.time_ns = event.time_ns;
  record.address = event.address;
  record.bytes = event.bytes;
  record.thread_id = event.thread_id;
  record.device = event.device;
  // An unknown operation is read as a free: it can only end a block, never invent one.
  record.allocate = event.operation == schema::MEMORY_OPERATION_ALLOCATE;
  Known(trace::MemoryOperation_IsValid(event.operation), "memory operation");
  record.kind = event.kind;
  Known(trace::MemoryKind_IsValid(event.kind), "memory kind");
  record.cupti_clock = HostClock(event.clock);
  if (const NameId stack = StackName(event.call_stack))
    record.call_stack = std::string(model_.names.Get(stack));
  Append(&model_.memory, std::move(record));
  ++model_.event_count;
}

inline const ModelBuilder::KernelName& ModelBuilder::KernelNameOf(KernelConfigId config) {
  KernelName& cached = kernel_name_of_config_.Slot(config);
  if (__builtin_expect(cached.name == 0, 0)) ResolveKernelName(config, &cached);
  return cached;
}

inline void ModelBuilder::SetKernelName(KernelConfigId config, DeviceActivity* activity) {
  const KernelName& cached = KernelNameOf(config);
  activity->name = cached.name;
  activity->nccl = cached.nccl;
  activity->launch = cached.launch;
}

template <typename Event>
DeviceActivity& ModelBuilder::AddDevice(DeviceKind kind, const Event& event) {
  DeviceActivity& activity = AppendNew(&model_.device_activities);
  activity.kind = kind;
  activity.start_ns = event.start_ns;
  activity.end_ns = event.start_ns + event.duration_ns;
  activity.correlation_id = event.correlation_id;
  activity.device = event.where.device;
  activity.stream = event.where.stream;
  activity.cupti_clock = Clock(event.where.clock);
  ++model_.event_count;
  return activity;
}

void ModelBuilder::OnKernel(const KernelEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kKernel, event);
  SetKernelName(event.config, &activity);
}

void ModelBuilder::OnMemcpy(const MemcpyEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kMemcpy, event);
  activity.bytes = event.bytes;
  activity.copy_kind = event.copy_kind;
  Known(trace::CopyKind_IsValid(event.copy_kind), "copy kind");
  Known(trace::MemoryKind_IsValid(event.source_kind), "memory kind");
  Known(trace::MemoryKind_IsValid(event.destination_kind), "memory kind");
  // An undefined kind (a newer agent, a damaged file) is kept as unknown.
  if (trace::MemoryKind_IsValid(event.source_kind))
    activity.source_kind = static_cast<uint8_t>(event.source_kind);
  if (trace::MemoryKind_IsValid(event.destination_kind))
    activity.destination_kind = static_cast<uint8_t>(event.destination_kind);
  activity.name = MemcpyNameId(event.copy_kind, event.source_kind, event.destination_kind);
}

void ModelBuilder::OnMemset(const MemsetEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kMemset, event);
  activity.bytes = event.bytes;
  if (memset_name_ == 0) memset_name_ = model_.names.Intern("MEMSET");
  activity.name = memset_name_;
}

void ModelBuilder::OnSynchronization(const SynchronizationEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kSynchronization, event);
  activity.name = model_.names.Intern(absl::StrCat("SYNC_", SynchronizationKindName(event.kind)));
  Known(trace::SynchronizationKind_IsValid(event.kind), "synchronization kind");
}

void ModelBuilder::OnThreadName(uint64_t thread_id, StringId name) {
  model_.thread_names[thread_id] = Name(name);
}

void ModelBuilder::OnLoss(schema::LossKind kind, uint64_t count) {
  Known(trace::LossKind_IsValid(kind), "loss kind");
  model_.quality.losses[LossKindName(kind)] += count;
}

void ModelBuilder::OnStepLoss(schema::LossKind kind, uint64_t count, int64_t step) {
  model_.quality.losses_by_step[step][LossKindName(kind)] += count;
}

void ModelBuilder::OnClockAnchor(const trace::ClockAnchor& anchor) { anchors_.push_back(anchor); }

void ModelBuilder::OnCpuUsage(const trace::CpuUsage& usage) { cpu_usage_.push_back(usage); }

void ModelBuilder::OnMemorySample(const MemorySampleEvent& event) {
  model_.memory_samples.push_back(
      {event.time_ns, event.device, event.allocated, event.reserved, event.peak, event.rss});
  ++model_.event_count;
}

void ModelBuilder::ConvertClocks() {
  const CuptiToHostClock clock(anchors_);
  uint64_t converted = 0;
  auto convert = [&](auto& records, auto start, auto end) {
    for (auto& record : records) {
      if (!record.cupti_clock) continue;
      // Only the start moves to the host clock; the duration is kept exactly as measured
      // (converting both ends through the interpolated anchors could change it by 1 ns).
      if constexpr (!std::is_same_v<decltype(end), std::nullptr_t>) {
        const uint64_t duration = record.*end - record.*start;
        record.*start = clock.ToHost(record.*start);
        record.*end = record.*start + duration;
      } else {
        record.*start = clock.ToHost(record.*start);
      }
      record.cupti_clock = false;
      ++converted;
    }
  };
  if (host_records_on_cupti_clock_ > 0) {
    convert(model_.ranges, &HostRange::start_ns, &HostRange::end_ns);
    convert(model_.api_calls, &ApiCall::start_ns, &ApiCall::end_ns);
    convert(model_.nccl_calls, &NcclCall::start_ns, &NcclCall::end_ns);
    convert(model_.memory, &MemoryRecord::time_ns, nullptr);
  }
  convert(model_.device_activities, &DeviceActivity::start_ns, &DeviceActivity::end_ns);
  if (!clock.aligned() && converted > 0) model_.quality.cupti_clock_assumed_equal = true;
  model_.quality.clock_lines.push_back(clock.Describe());
}

TraceModel ModelBuilder::Finish(const std::string& file_label, bool correlate) {
  ConvertClocks();
  model_.quality.clock_lines.back() =
      absl::StrCat(file_label, ": ", model_.quality.clock_lines.back());
  model_.files.push_back(file_label);
  model_.quality.unknown_dictionary_references += dictionary_->unknown_references();
  model_.quality.dropped_definitions += dictionary_->dropped_definitions();
  if (correlate) LinkDeviceActivitiesToApiCalls(&model_);
  // The earliest and latest readings bound the window (a file cut short has only one).
  if (cpu_usage_.size() >= 2) {
    auto by_time = [](const trace::CpuUsage& a, const trace::CpuUsage& b) {
      return a.host_monotonic_ns() < b.host_monotonic_ns();
    };
    const auto [first, last] = std::minmax_element(cpu_usage_.begin(), cpu_usage_.end(), by_time);
    if (last->host_monotonic_ns() > first->host_monotonic_ns())
      model_.cpu_windows.push_back({*first, *last});
  }
  return std::move(model_);
}

}  // namespace prof::analyzer
