#include "agent/writer/record_converter.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "agent/record/api_ids.h"
#include "agent/record/kernel_names.h"
#include "agent/record/nccl_registry.h"
#include "proto/chunk_encoder_inline.h"

namespace prof {
namespace {

// cudaMemcpyKind (+1 in the record; 0 = none) to the trace's CopyKind.
schema::CopyKind CopyKindOf(uint64_t stored) {
  switch (stored) {
    case 1: return schema::COPY_KIND_HOST_TO_HOST;
    case 2: return schema::COPY_KIND_HOST_TO_DEVICE;
    case 3: return schema::COPY_KIND_DEVICE_TO_HOST;
    case 4: return schema::COPY_KIND_DEVICE_TO_DEVICE;
    case 5: return schema::COPY_KIND_DEFAULT;
    default: return schema::COPY_KIND_UNKNOWN;
  }
}

// "function+0x1c (libfoo.so)" from the dynamic symbol table; "libfoo.so+0x1234" without.
std::string SymbolOf(uint64_t address) {
  char text[64];
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(address), &info)) {
    std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(address));
    return text;
  }
  const char* module = info.dli_fname ? std::strrchr(info.dli_fname, '/') : nullptr;
  module = module ? module + 1 : (info.dli_fname ? info.dli_fname : "?");
  if (info.dli_sname) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    const std::string name = status == 0 && demangled ? demangled : info.dli_sname;
    std::free(demangled);
    std::snprintf(
        text, sizeof(text), "+0x%llx (",
        static_cast<unsigned long long>(address - reinterpret_cast<uint64_t>(info.dli_saddr)));
    return name + text + module + ")";
  }
  std::snprintf(
      text, sizeof(text), "+0x%llx",
      static_cast<unsigned long long>(address - reinterpret_cast<uint64_t>(info.dli_fbase)));
  return module + std::string(text);
}

// Range and mark records carry their NVTX domain as a pointer to a never-freed string.
std::string DomainOf(const Record& record) {
  const char* domain = RecordAs<NamedRecord>(record).domain;
  return domain ? std::string(domain) : std::string();
}

}  // namespace

// The operator range a kOperatorPushDetail / kOperatorRangeDetail record opens.
RecordConverter::OpenRange RecordConverter::DetailedRange(uint64_t thread_id, const Record& record,
                                                          const WindowFile& window) {
  const OperatorDetailTexts texts = DetailTextsOf(record);
  OpenRange range{
      texts.name,          std::string(), schema::RANGE_KIND_OPERATOR, record.start_ns, thread_id,
      window.spec().index, false};
  range.shapes = texts.shapes;
  range.dtypes = texts.dtypes;
  range.source = texts.source;
  return range;
}

void RecordConverter::AddLaunch(uint64_t thread_id, const Record& record, WindowFile& window) {
  window.NoteCudaActivity();
  const PackedLaunch& launch = RecordAs<LaunchRecord>(record).launch;
  CallArguments arguments;
  arguments.stream_plus_one = launch.stream_grid_z & internal::kLaunchPointerMask;
  arguments.kernel_config = LaunchConfigIn(window, launch);
  AddApiCall(thread_id, record, arguments, window);
}

void RecordConverter::AddRecord(uint64_t thread_id, const Record& record, WindowFile& window) {
  ChunkEncoder& encoder = window.encoder();
  // A launch notes its CUDA activity in AddLaunch (Add sends launches there directly).
  if (record.kind == RecordKind::kApiCall || record.kind == RecordKind::kNcclCall) {
    window.NoteCudaActivity();
  }
  switch (record.kind) {
    case RecordKind::kLaunch: AddLaunch(thread_id, record, window); return;
    case RecordKind::kApiCall: {
      const ApiCallRecord& call = RecordAs<ApiCallRecord>(record);
      CallArguments arguments;
      arguments.stream_plus_one = call.stream_plus_one;
      arguments.bytes = call.bytes;
      arguments.copy_kind_plus_one = call.copy_kind_plus_one;
      if (call.function) {
        arguments.kernel_config =
            LaunchConfigIn(window, UnpackedLaunch{call.function, call.stream_plus_one, call.launch});
      }
      AddApiCall(thread_id, record, arguments, window);
      return;
    }
    case RecordKind::kNcclCall:
      AddNcclCall(thread_id, RecordAs<NcclCallRecord>(record), window);
      return;
    case RecordKind::kMemory: AddMemory(thread_id, RecordAs<MemoryRecord>(record), window); return;
    case RecordKind::kRangePush:
      stacks_[thread_id].push_back(OpenRange{record.name(), DomainOf(record), record.subkind,
                                             record.start_ns, thread_id, window.spec().index,
                                             false});
      return;
    case RecordKind::kOperatorPushDetail:
      stacks_[thread_id].push_back(DetailedRange(thread_id, record, window));
      return;
    case RecordKind::kOperatorRangeDetail:  // whole: no stack, nothing to match
      EndRange(DetailedRange(thread_id, record, window), record.end_ns, window);
      return;
    case RecordKind::kOperatorRange:  // Add sends these to AddOperatorRange directly
      AddOperatorRange(thread_id, record, window);
      return;
    case RecordKind::kRangePop: {
      auto& stack = stacks_[thread_id];
      if (stack.empty()) {
        window.AddLoss(schema::LOSS_KIND_RANGE_UNMATCHED_POP, 1);
        return;
      }
      const OpenRange range = std::move(stack.back());
      stack.pop_back();
      EndRange(range, record.start_ns, window);
      return;
    }
    case RecordKind::kRangeStart:
      started_[record.correlation_id] =
          OpenRange{record.name(), DomainOf(record),    record.subkind, record.start_ns,
                    thread_id,     window.spec().index, false};
      return;
    case RecordKind::kRangeEnd: {
      auto it = started_.find(record.correlation_id);
      if (it == started_.end()) {
        window.AddLoss(schema::LOSS_KIND_RANGE_UNMATCHED_POP, 1);
        return;
      }
      const OpenRange range = std::move(it->second);
      started_.erase(it);
      EndRange(range, record.start_ns, window);
      return;
    }
    case RecordKind::kMark: {
      HostRangeEvent mark;
      mark.thread_id = thread_id;
      mark.start_ns = record.start_ns;
      mark.name = encoder.InternString(record.name());
      mark.kind = schema::RANGE_KIND_MARK;
      const std::string domain = DomainOf(record);
      if (!domain.empty()) mark.domain = encoder.InternString(domain);
      encoder.AddHostRange(mark);
      return;
    }
    case RecordKind::kStep: {
      const StepRecord& ended = RecordAs<StepRecord>(record);
      StepEvent step;
      step.thread_id = thread_id;
      step.start_ns = ended.start_ns;
      step.duration_ns = ended.end_ns - ended.start_ns;
      step.step_number = ended.step;
      step.sample_count = ended.samples;
      encoder.AddStep(step);
      window.NoteStepEnded(thread_id, ended.end_ns, ended.step);
      // Host memory beside the device's: the RSS at the step's end, read here on the writer
      // thread (never on the step boundary's path), so up to one drain period later than
      // the boundary it is stamped with.
      if (read_host_rss_) {
        MemorySampleEvent rss;
        rss.time_ns = record.end_ns;
        rss.device = -1;
        rss.rss = read_host_rss_();
        if (rss.rss != 0) encoder.AddMemorySample(rss);
      }
      return;
    }
    case RecordKind::kMemorySample: {
      const MemorySampleRecord& sampled = RecordAs<MemorySampleRecord>(record);
      MemorySampleEvent sample;
      sample.time_ns = sampled.start_ns;
      sample.device = sampled.device;
      sample.allocated = sampled.allocated;
      sample.reserved = sampled.reserved;
      sample.peak = sampled.peak;
      encoder.AddMemorySample(sample);
      return;
    }
    case RecordKind::kThreadName: encoder.SetThreadName(thread_id, record.name()); return;
    case RecordKind::kPadding: return;
  }
}

void RecordConverter::AddApiCall(uint64_t thread_id, const Record& record,
                                 const CallArguments& arguments, WindowFile& window) {
  ChunkEncoder& encoder = window.encoder();
  // Calls seen only through CUPTI callbacks carry their name inline (api = kApiNone).
  const StringId name =
      record.name_length ? encoder.InternString(record.name()) : ApiNameIn(window, record.api);
  // A local event, every field assigned, handed to the encoder's inline body: it lives in
  // registers, its constant fields fold away. (A reused member was needed while the encoder
  // was out of line: a fresh default-constructed event is zeroed with `rep stos`, whose
  // stores the encoder's loads could not forward from; perf, issue 26.)
  ApiCallEvent call;
  call.thread_id = thread_id;
  call.clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  call.start_ns = record.start_ns;
  call.duration_ns = record.end_ns - record.start_ns;
  call.name = name;
  call.correlation_id = record.correlation_id;
  call.domain =
      record.subkind == kApiSubkindDriver ? schema::API_DOMAIN_DRIVER : schema::API_DOMAIN_RUNTIME;
  call.status = record.status;
  if (arguments.stream_plus_one != 0) {
    call.stream = arguments.stream_plus_one - 1;
  } else {
    call.stream.reset();
  }
  call.bytes = arguments.bytes;
  call.copy_kind = CopyKindOf(arguments.copy_kind_plus_one);
  call.kernel_config = arguments.kernel_config;
  call.call_stack = StackOf(record, encoder);
  window.NoteCorrelationId(record.correlation_id);
  encoder.AddApiCallInline(call);
}

StringId RecordConverter::InternApiName(WindowFile& window, uint16_t api) {
  std::vector<StringId>& ids = window.interning().api_name_ids;
  if (ids.size() <= api) ids.resize(api + 1, 0);
  StringId& id = ids[api];
  if (id == 0) id = window.encoder().InternString(ApiName(api));
  return id;
}

KernelConfigId RecordConverter::LaunchConfigMiss(WindowFile& window, const PackedLaunch& launch) {
  const uint64_t grid_z = launch.stream_grid_z >> 48;
  FileInterning::LaunchMemo& memo =
      window.interning().launch_memo[FileInterning::LaunchMemoSlot(launch)];
  const KernelConfigId id = LaunchConfigInMap(window, UnpackLaunch(launch));
  memo = {launch.function_grid_y, grid_z, launch.geometry, id};
  return id;
}

KernelConfigId RecordConverter::LaunchConfigIn(WindowFile& window, const UnpackedLaunch& launch) {
  PackedLaunch packed;
  if (PackLaunch(launch.function, 0, launch.geometry, &packed)) {
    return LaunchConfigIn(window, packed);
  }
  return LaunchConfigInMap(window, launch);
}

KernelConfigId RecordConverter::LaunchConfigInMap(WindowFile& window,
                                                  const UnpackedLaunch& launch) {
  const FileInterning::LaunchKey key{launch.function, launch.geometry};
  auto [cached, inserted] = window.interning().launch_configs.try_emplace(key, 0);
  if (inserted) cached->second = InternLaunchConfig(window, launch);
  return cached->second;
}

KernelConfigId RecordConverter::InternLaunchConfig(WindowFile& window,
                                                   const UnpackedLaunch& launch) {
  auto [named, new_name] = kernel_names_.try_emplace(launch.function);
  if (new_name) named->second = KernelNameOf(launch.function);
  KernelConfigValue config;
  config.name = window.encoder().InternString(named->second);
  for (int i = 0; i < 3; ++i) {
    config.grid[i] = launch.geometry.grid[i];
    config.block[i] = launch.geometry.block[i];
  }
  config.dynamic_shared_memory = launch.geometry.shared_memory;
  return window.encoder().InternKernelConfig(config);
}

CommunicatorValue CommunicatorValueOf(const void* comm) {
  CommunicatorValue value;
  CommunicatorInfo info;
  if (LookupCommunicator(comm, &info)) {
    value.comm_hash = info.comm_hash;
    value.rank = info.rank;
    value.rank_count = info.rank_count;
    value.init_start_ns = info.init_start_ns;
    value.init_duration_ns = info.init_duration_ns;
  } else {
    value.comm_hash = reinterpret_cast<uint64_t>(comm);  // unknown: this process only
  }
  return value;
}

CommunicatorId RecordConverter::CommunicatorIn(WindowFile& window, const void* comm) {
  auto [it, inserted] = communicator_ids_.try_emplace({window.spec().index, comm}, 0);
  if (inserted) it->second = window.encoder().AddCommunicator(CommunicatorValueOf(comm));
  return it->second;
}

void RecordConverter::AddNcclCall(uint64_t thread_id, const NcclCallRecord& record,
                                  WindowFile& window) {
  const void* comm = reinterpret_cast<const void*>(record.comm);
  NcclCallEvent call;
  call.thread_id = thread_id;
  call.start_ns = record.start_ns;
  call.duration_ns = record.end_ns - record.start_ns;
  call.operation = static_cast<schema::NcclOperation>(record.api);
  call.count = record.count;
  call.data_type = record.data_type;
  call.bytes = record.bytes;
  call.stream = record.stream;
  const bool is_group = call.operation == schema::NCCL_OPERATION_GROUP_START ||
                        call.operation == schema::NCCL_OPERATION_GROUP_END;
  if (!is_group) {
    call.communicator = CommunicatorIn(window, comm);
    // The hook's number, counted over every call (also those outside windows while the
    // flight recorder is on); the writer's own count only for unknown communicators.
    call.sequence_number = record.sequence > 0 ? record.sequence : ++nccl_sequence_[comm];
    if (record.root_or_peer >= 0) call.root_or_peer = record.root_or_peer;
    if (record.reduction >= 0) call.reduction_op = static_cast<uint32_t>(record.reduction);
  }
  window.encoder().AddNcclCall(call);
}

void RecordConverter::AddMemory(uint64_t thread_id, const MemoryRecord& record,
                                WindowFile& window) {
  MemoryEvent event;
  event.thread_id = thread_id;
  event.time_ns = record.start_ns;
  event.operation = (record.flags & kRecordMemoryFree) ? schema::MEMORY_OPERATION_FREE
                                                       : schema::MEMORY_OPERATION_ALLOCATE;
  event.address = record.address;
  event.bytes = record.bytes;
  event.device = record.device;
  event.kind = static_cast<schema::MemoryKind>(record.subkind);
  if (record.stream_plus_one != 0) event.stream = record.stream_plus_one - 1;
  event.call_stack = StackOf(record, window.encoder());
  window.encoder().AddMemory(event);
}

CallStackId RecordConverter::InternStackOf(const Record& record, ChunkEncoder& encoder) {
  const int count = FrameCountOf(record);
  const uint64_t* frames = FramesOf(record);
  std::vector<std::string> names;
  names.reserve(count);
  for (int i = 0; i < count; ++i) {
    auto [it, inserted] = frame_names_.try_emplace(frames[i]);
    if (inserted) it->second = SymbolOf(frames[i]);
    names.push_back(it->second);
  }
  return encoder.InternCallStack(std::vector<uint64_t>(frames, frames + count), names);
}

void RecordConverter::EndRange(const OpenRange& range, uint64_t end_ns, WindowFile& current) {
  if (range.written) return;  // already written, clipped, when its window closed
  WindowFile* window =
      range.window == current.spec().index ? &current : window_by_index_(range.window);
  if (window) WriteRange(range, end_ns, *window);
}

void RecordConverter::WriteRange(const OpenRange& range, uint64_t end_ns, WindowFile& window) {
  HostRangeEvent event;
  event.thread_id = range.thread_id;
  event.start_ns = range.start_ns;
  event.duration_ns = end_ns > range.start_ns ? end_ns - range.start_ns : 0;
  event.name = window.encoder().InternString(range.name);
  event.kind = static_cast<schema::RangeKind>(range.kind);
  if (!range.domain.empty()) event.domain = window.encoder().InternString(range.domain);
  if (!range.shapes.empty()) event.shapes = window.encoder().InternString(range.shapes);
  if (!range.dtypes.empty()) event.dtypes = window.encoder().InternString(range.dtypes);
  if (!range.source.empty()) event.source = window.encoder().InternString(range.source);
  window.encoder().AddHostRange(event);
}

void RecordConverter::MoveOpenRanges(uint32_t from_window, uint32_t to_window) {
  auto move = [&](OpenRange& range) {
    if (!range.written && range.window == from_window) range.window = to_window;
  };
  for (auto& [thread, stack] : stacks_) {
    for (OpenRange& range : stack) move(range);
  }
  for (auto& [id, range] : started_) move(range);
}

void RecordConverter::ForgetWindow(uint32_t window) {
  for (auto it = communicator_ids_.begin(); it != communicator_ids_.end();) {
    it = it->first.first == window ? communicator_ids_.erase(it) : std::next(it);
  }
}

void RecordConverter::CloseOpenRanges(WindowFile& window) {
  uint64_t clipped = 0;
  auto close = [&](OpenRange& range) {
    if (range.written || range.window != window.spec().index) return;
    WriteRange(range, window.close_ns(), window);
    range.written = true;
    ++clipped;
  };
  for (auto& [thread, stack] : stacks_) {
    for (OpenRange& range : stack) close(range);
  }
  for (auto& [id, range] : started_) close(range);
  window.AddLoss(schema::LOSS_KIND_RANGE_OPEN_AT_END, clipped);
}

}  // namespace prof
