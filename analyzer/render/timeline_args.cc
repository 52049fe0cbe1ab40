#include "analyzer/render/timeline_args.h"

#include <cstdio>

#include "analyzer/model/enum_names.h"
#include "analyzer/render/kernel_occupancy.h"

namespace prof::analyzer {
namespace {

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string Dim3(const uint32_t (&dims)[3]) {
  char text[48];
  std::snprintf(text, sizeof(text), "[%u, %u, %u]", dims[0], dims[1], dims[2]);
  return text;
}

void AddKernelArgs(const KernelLaunch& launch, TimelineArgs* args) {
  args->push_back({"grid", Dim3(launch.grid)});
  args->push_back({"block", Dim3(launch.block)});
  args->push_back({"registers per thread", uint64_t{launch.registers_per_thread}});
  args->push_back({"static shared memory", uint64_t{launch.static_shared_memory}});
  args->push_back({"dynamic shared memory", uint64_t{launch.dynamic_shared_memory}});
  if (const std::optional<double> occupancy = TheoreticalOccupancy(launch)) {
    args->push_back({"theoretical occupancy %", *occupancy * 100.0});
    args->push_back({"occupancy assumes", std::string(kOccupancyDeviceLimits)});
  }
}

}  // namespace

std::string NcclFunctionName(schema::NcclOperation operation) {
  switch (operation) {
    case schema::NCCL_OPERATION_ALL_REDUCE: return "ncclAllReduce";
    case schema::NCCL_OPERATION_BROADCAST: return "ncclBroadcast";
    case schema::NCCL_OPERATION_REDUCE: return "ncclReduce";
    case schema::NCCL_OPERATION_ALL_GATHER: return "ncclAllGather";
    case schema::NCCL_OPERATION_REDUCE_SCATTER: return "ncclReduceScatter";
    case schema::NCCL_OPERATION_SEND: return "ncclSend";
    case schema::NCCL_OPERATION_RECV: return "ncclRecv";
    case schema::NCCL_OPERATION_ALL_TO_ALL: return "ncclAlltoAll";
    case schema::NCCL_OPERATION_GROUP_START: return "ncclGroupStart";
    case schema::NCCL_OPERATION_GROUP_END: return "ncclGroupEnd";
    case schema::NCCL_OPERATION_GATHER: return "ncclGather";
    case schema::NCCL_OPERATION_SCATTER: return "ncclScatter";
    default: return "ncclOp(" + std::to_string(static_cast<int>(operation)) + ")";
  }
}

std::string NcclDataTypeName(uint32_t data_type) {
  static constexpr const char* kNames[] = {"ncclInt8",     "ncclUint8",      "ncclInt32",
                                           "ncclUint32",   "ncclInt64",      "ncclUint64",
                                           "ncclFloat16",  "ncclFloat32",    "ncclFloat64",
                                           "ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2"};
  if (data_type < sizeof(kNames) / sizeof(kNames[0])) return kNames[data_type];
  return "ncclDataType(" + std::to_string(data_type) + ")";
}

std::string NcclReductionName(uint32_t reduction_op) {
  static constexpr const char* kNames[] = {"ncclSum", "ncclProd", "ncclMax", "ncclMin", "ncclAvg"};
  if (reduction_op < sizeof(kNames) / sizeof(kNames[0])) return kNames[reduction_op];
  return "ncclRedOp(" + std::to_string(reduction_op) + ")";
}

const char* CopyKindShortName(schema::CopyKind kind) {
  const char* direction = CopyDirectionName(kind);
  if (*direction) return direction;
  return kind == schema::COPY_KIND_DEFAULT ? "Default" : "Unknown";
}

TimelineArgs DeviceActivityArgs(const TraceModel& model, const DeviceActivity& activity) {
  TimelineArgs args;
  args.push_back({"correlation", activity.correlation_id});
  if (activity.kind == DeviceKind::kKernel && activity.launch != kNoIndex &&
      static_cast<size_t>(activity.launch) < model.kernel_launches.size()) {
    AddKernelArgs(model.kernel_launches[activity.launch], &args);
  }
  if (activity.kind == DeviceKind::kMemcpy) {
    args.push_back({"kind", std::string(CopyKindShortName(
                                activity.copy_kind()))});
  }
  if (activity.bytes) args.push_back({"bytes", activity.bytes});
  const uint64_t duration = activity.end_ns - activity.start_ns;
  if (activity.kind == DeviceKind::kMemcpy && activity.bytes && duration > 0) {
    // bytes per ns = GB/s (decimal, as nsys and CUPTI report bandwidth).
    args.push_back({"GB/s", static_cast<double>(activity.bytes) / static_cast<double>(duration)});
  }
  return args;
}

TimelineArgs ApiCallArgs(const TraceModel& model, const ApiCall& call) {
  TimelineArgs args;
  args.push_back({"correlation", call.correlation_id});
  args.push_back({"status", call.status});
  if (call.has_stream) args.push_back({"stream", Hex(call.stream)});
  if (call.bytes) args.push_back({"bytes", call.bytes});
  if (call.copy_kind() != schema::COPY_KIND_UNKNOWN) {
    args.push_back(
        {"kind", std::string(CopyKindShortName(call.copy_kind()))});
  }
  if (call.call_stack)
    args.push_back({"call stack", std::string(model.names.Get(call.call_stack))});
  // Every launch, with or without its kernel's record: the call's own slice names what it
  // launched (as Nsight Systems' CUDA API row does), so a trace without CUPTI still shows
  // it, and one with CUPTI reads the same on either end of the flow arrow.
  if (call.launch != kNoIndex && static_cast<size_t>(call.launch) < model.kernel_launches.size()) {
    const KernelLaunch& launch = model.kernel_launches[call.launch];
    args.push_back({"kernel", std::string(model.names.Get(launch.name))});
    args.push_back({"grid", Dim3(launch.grid)});
    args.push_back({"block", Dim3(launch.block)});
    args.push_back({"dynamic shared memory", uint64_t{launch.dynamic_shared_memory}});
  }
  return args;
}

TimelineArgs NcclCallArgs(const NcclCall& call) {
  TimelineArgs args;
  const bool group = call.operation == schema::NCCL_OPERATION_GROUP_START ||
                     call.operation == schema::NCCL_OPERATION_GROUP_END;
  if (!group) {
    args.push_back({"count", call.count});
    args.push_back({"dtype", NcclDataTypeName(call.data_type)});
    args.push_back({"bytes", call.bytes});
  }
  if (call.has_reduction_op) args.push_back({"reduction", NcclReductionName(call.reduction_op)});
  if (call.has_root_or_peer) {
    const bool point_to_point = call.operation == schema::NCCL_OPERATION_SEND ||
                                call.operation == schema::NCCL_OPERATION_RECV;
    args.push_back({point_to_point ? "peer rank" : "root rank", call.root_or_peer});
  }
  if (call.comm_hash) args.push_back({"communicator", Hex(call.comm_hash)});
  if (call.comm_rank >= 0) args.push_back({"rank", int64_t{call.comm_rank}});
  if (call.rank_count > 0) args.push_back({"ranks", int64_t{call.rank_count}});
  if (!group) args.push_back({"sequence", call.sequence_number});
  if (call.stream) args.push_back({"stream", Hex(call.stream)});
  return args;
}

TimelineArgs MemoryArgs(const MemoryRecord& record) {
  TimelineArgs args;
  args.push_back({"address", Hex(record.address)});
  if (record.allocate) args.push_back({"bytes", record.bytes});
  args.push_back({"device", int64_t{record.device}});
  args.push_back({"memory kind", MemoryKindName(record.kind)});
  if (!record.call_stack.empty()) args.push_back({"call stack", record.call_stack});
  return args;
}

std::vector<SampleCounter> MemorySampleCounters(const MemorySample& sample) {
  if (sample.device < 0) return {{"Host RSS", 2, sample.rss}};
  const std::string place = "GPU" + std::to_string(sample.device);
  return {{place + " allocated", 0, sample.allocated}, {place + " reserved", 1, sample.reserved}};
}

void WriteTimelineArgValues(const TimelineArgs& args, JsonWriter* json) {
  for (const TimelineArg& arg : args) {
    json->Key(arg.key);
    if (const auto* i = std::get_if<int64_t>(&arg.value)) json->Int(*i);
    if (const auto* u = std::get_if<uint64_t>(&arg.value)) json->Uint(*u);
    if (const auto* d = std::get_if<double>(&arg.value)) json->Double(*d, 3);
    if (const auto* text = std::get_if<std::string>(&arg.value)) json->String(*text);
  }
}

}  // namespace prof::analyzer
