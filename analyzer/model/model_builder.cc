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
#include "analyzer/model/record_append.h"
#include "proto/schema_names.h"

namespace prof::analyzer {
namespace {

using model_records::Append;
using model_records::AppendNew;
using model_records::HasRoom;

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
  converted_ = {model_.ranges.size(), model_.api_calls.size(), model_.nccl_calls.size(),
                model_.memory.size()};
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

// The fast paths below must not call out: a call anywhere in them made the compiler save
// six registers on every event (a fifth of OnApiCall). These read the caches without
// filling them; false sends the event to the general path, which fills them.
inline bool ModelBuilder::CachedName(IdCache<NameId>* cache, uint32_t id, NameId* name) {
  if (id == 0) {
    *name = 0;
    return true;
  }
  const NameId* cached = cache->Peek(id);
  if (cached == nullptr || *cached == kUnresolved) return false;
  *name = *cached;
  return true;
}

inline bool ModelBuilder::CachedLaunch(KernelConfigId config, int32_t* launch) {
  if (config == 0) {
    *launch = kNoIndex;
    return true;
  }
  const KernelName* cached = kernel_name_of_config_.Peek(config);
  if (cached == nullptr || cached->name == 0) return false;
  *launch = cached->launch;
  return true;
}

// The usual call: ids seen before, a defined domain and clock, no copy kind (copies take
// the general path, which checks it), room in the vector.
void ModelBuilder::OnApiCall(const ApiCallEvent& event) {
  std::vector<ApiCall>& calls = model_.api_calls;
  ApiCallIds ids;
  const bool usual = (event.domain == schema::API_DOMAIN_RUNTIME ||
                      event.domain == schema::API_DOMAIN_DRIVER) &&
                     (event.clock == schema::CLOCK_DOMAIN_HOST_MONOTONIC ||
                      event.clock == schema::CLOCK_DOMAIN_CUPTI) &&
                     event.copy_kind == schema::COPY_KIND_UNKNOWN && HasRoom(calls);
  if (__builtin_expect(!usual || !CachedName(&name_of_file_id_, event.name, &ids.name) ||
                           !CachedName(&stack_name_of_id_, event.call_stack, &ids.call_stack) ||
                           !CachedLaunch(event.kernel_config, &ids.launch),
                       0))
    return AddApiCall(event);
  const bool cupti = event.clock == schema::CLOCK_DOMAIN_CUPTI;
  host_records_on_cupti_clock_ += cupti;
  FillApiCall(event, ids, schema::COPY_KIND_UNKNOWN, cupti, &calls.emplace_back());
  ++model_.event_count;
}

void ModelBuilder::AddApiCall(const ApiCallEvent& event) {
  // The generated IsValid functions are out of line: the usual values skip the call.
  Known(event.domain == schema::API_DOMAIN_RUNTIME || event.domain == schema::API_DOMAIN_DRIVER ||
            trace::ApiDomain_IsValid(event.domain),
        "API domain");
  const bool cupti = HostClock(event.clock);
  const schema::CopyKind copy_kind =
      event.copy_kind == schema::COPY_KIND_UNKNOWN || trace::CopyKind_IsValid(event.copy_kind)
          ? event.copy_kind
          : schema::COPY_KIND_UNKNOWN;
  ApiCallIds ids;
  ids.name = Name(event.name);
  ids.call_stack = StackName(event.call_stack);
  ids.launch = event.kernel_config != 0 ? KernelNameOf(event.kernel_config).launch : kNoIndex;
  FillApiCall(event, ids, copy_kind, cupti, &AppendNew(&model_.api_calls));
  ++model_.event_count;
}

// Every field written in place, over the defaults emplace_back stored (the event might
// alias the vector, so the compiler keeps both). Built whole on the stack and copied in,
// as it was, the record was stored field by field and read back 16 bytes at a time: each
// read spanned several narrow stores, which the processor cannot forward, and waited for
// them to reach the cache (half of OnApiCall's samples on the copy's first read).
inline void ModelBuilder::FillApiCall(const ApiCallEvent& event, const ApiCallIds& ids,
                                      schema::CopyKind copy_kind, bool cupti, ApiCall* out) {
  ApiCall& call = *out;
  call.thread_id = event.thread_id;
  call.start_ns = event.start_ns;
  call.end_ns = event.start_ns + event.duration_ns;
  call.correlation_id = event.correlation_id;
  call.name = ids.name;
  call.driver = event.domain == schema::API_DOMAIN_DRIVER;
  call.cupti_clock = cupti;
  call.has_stream = event.stream.has_value();
  call.set_copy_kind(copy_kind);
  call.call_stack = ids.call_stack;
  call.launch = ids.launch;
  call.status = event.status;
  call.stream = event.stream.value_or(0);
  call.bytes = event.bytes;
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
  // Only the start moves to the host clock; the duration is kept exactly as measured
  // (converting both ends through the interpolated anchors could change it by 1 ns).
  auto to_host = [&](auto& record, auto start, auto end) {
    if constexpr (!std::is_same_v<decltype(end), std::nullptr_t>) {
      const uint64_t duration = record.*end - record.*start;
      record.*start = clock.ToHost(record.*start);
      record.*end = record.*start + duration;
    } else {
      record.*start = clock.ToHost(record.*start);
    }
    ++converted;
  };
  auto convert = [&](auto& records, size_t first, auto start, auto end) {
    for (size_t i = first; i < records.size(); ++i) {
      auto& record = records[i];
      if (!record.cupti_clock) continue;
      to_host(record, start, end);
      record.cupti_clock = false;
    }
  };
  if (host_records_on_cupti_clock_ > 0) {
    convert(model_.ranges, converted_.ranges, &HostRange::start_ns, &HostRange::end_ns);
    convert(model_.api_calls, converted_.api_calls, &ApiCall::start_ns, &ApiCall::end_ns);
    convert(model_.nccl_calls, converted_.nccl_calls, &NcclCall::start_ns, &NcclCall::end_ns);
    convert(model_.memory, converted_.memory, &MemoryRecord::time_ns, nullptr);
  }
  for (const IndexRun& run : device_on_cupti_clock_) {  // none with a fixed clock
    for (size_t i = run.begin; i < run.end; ++i) {
      to_host(model_.device_activities[i], &DeviceActivity::start_ns, &DeviceActivity::end_ns);
    }
  }
  device_on_cupti_clock_.clear();
  converted += device_records_converted_;
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
