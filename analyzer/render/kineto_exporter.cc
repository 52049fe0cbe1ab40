#include "analyzer/render/kineto_exporter.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/render/json_writer.h"
#include "analyzer/render/kineto_annotations.h"
#include "analyzer/render/kineto_names.h"
#include "analyzer/render/timeline_args.h"
#include "analyzer/render/timeline_walk.h"

namespace prof::analyzer {

// The JSON of one trace: events stream into "traceEvents"; End adds the metadata keys.
class KinetoWriter {
 public:
  KinetoWriter(std::FILE* out, uint64_t origin_ns, KinetoExportFigures* figures)
      : json_(out), origin_(origin_ns), figures_(figures) {
    json_.BeginObject();
    json_.Key("schemaVersion");
    json_.Int(1);
    json_.Key("traceEvents");
    json_.BeginArray();
  }

  // Opens an event with Kineto's common fields; the caller adds the rest and closes it.
  void Event(const char* phase, absl::string_view category, absl::string_view name, int64_t pid,
             uint64_t tid, uint64_t start_ns) {
    json_.Newline();
    json_.BeginObject();
    json_.Key("ph");
    json_.String(phase);
    if (!category.empty()) {
      json_.Key("cat");
      json_.String(category);
    }
    json_.Key("name");
    json_.String(name);
    json_.Key("pid");
    json_.Int(pid);
    json_.Key("tid");
    json_.Uint(tid);
    json_.Key("ts");
    json_.Double(Micros(start_ns), 3);
    ++figures_->trace_events;
  }
  void Complete(absl::string_view category, absl::string_view name, int64_t pid, uint64_t tid,
                uint64_t start_ns, uint64_t end_ns) {
    Event("X", category, name, pid, tid, start_ns);
    json_.Key("dur");
    json_.Double(end_ns >= start_ns ? (end_ns - start_ns) / 1000.0 : 0.0, 3);
  }
  void Metadata(const char* name, int64_t pid, uint64_t tid, const char* key,
                absl::string_view value) {
    json_.Newline();
    json_.BeginObject();
    json_.Key("ph");
    json_.String("M");
    json_.Key("name");
    json_.String(name);
    json_.Key("pid");
    json_.Int(pid);
    json_.Key("tid");
    json_.Uint(tid);
    json_.Key("args");
    json_.BeginObject();
    json_.Key(key);
    json_.String(value);
    json_.EndObject();
    json_.EndObject();
  }
  void Flow(const char* phase, uint64_t id, int64_t pid, uint64_t tid, uint64_t time_ns) {
    Event(phase, "ac2g", "ac2g", pid, tid, time_ns);
    json_.Key("id");
    json_.Uint(id);
    if (phase[0] == 'f') {
      json_.Key("bp");
      json_.String("e");
    }
    json_.EndObject();
  }
  // `"args": {...}`; a kernel's launch adds "grid" and "block" as [x, y, z].
  void Args(const TimelineArgs& args, const KernelLaunch* launch = nullptr) {
    json_.Key("args");
    json_.BeginObject();
    WriteTimelineArgValues(args, &json_);
    if (launch != nullptr) {
      for (auto [key, dims] : {std::pair{"grid", launch->grid}, {"block", launch->block}}) {
        json_.Key(key);
        json_.BeginArray();
        for (int axis = 0; axis < 3; ++axis) json_.Uint(dims[axis]);
        json_.EndArray();
      }
    }
    json_.EndObject();
  }
  JsonWriter& json() { return json_; }
  KinetoExportFigures* figures() { return figures_; }

 private:
  double Micros(uint64_t ns) const {
    return (static_cast<double>(ns) - static_cast<double>(origin_)) / 1000.0;
  }

  JsonWriter json_;
  uint64_t origin_;
  KinetoExportFigures* figures_;
};

namespace {

const char* HostCategory(RangeType type) {
  switch (type) {
    case RangeType::kOperator: return "cpu_op";
    case RangeType::kMark: return "cpu_instant_event";
    default: return "user_annotation";
  }
}

const char* DeviceCategory(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kKernel: return "kernel";
    case DeviceKind::kMemcpy: return "gpu_memcpy";
    case DeviceKind::kMemset: return "gpu_memset";
    case DeviceKind::kSynchronization: return "cuda_sync";
  }
  return "kernel";
}

// c10's ScalarType name of an ncclDataType_t (torch.profiler's "dtype" of a collective).
std::string TorchDtypeName(uint32_t data_type) {
  static const char* const kNames[] = {"Char",   "Byte",     "Int",           "UInt32",
                                       "Long",   "UInt64",   "Half",          "Float",
                                       "Double", "BFloat16", "Float8_e4m3fn", "Float8_e5m2"};
  if (data_type < sizeof(kNames) / sizeof(kNames[0])) return kNames[data_type];
  return NcclDataTypeName(data_type);
}

TimelineArgs CollectiveArgs(const NcclCall& call) {
  TimelineArgs args;
  args.push_back({"Collective name", std::string(CollectiveName(call.operation))});
  args.push_back({"In msg nelems", call.count});
  args.push_back({"Out msg nelems", call.count});
  if (call.rank_count > 0) args.push_back({"Group size", static_cast<int64_t>(call.rank_count)});
  args.push_back({"dtype", TorchDtypeName(call.data_type)});
  args.push_back({"Seq", call.sequence_number});
  if (call.comm_rank >= 0) args.push_back({"Rank", static_cast<int64_t>(call.comm_rank)});
  if (call.has_root_or_peer && call.operation == schema::NCCL_OPERATION_SEND) {
    args.push_back({"Dst Rank", call.root_or_peer});
  }
  if (call.has_root_or_peer && call.operation == schema::NCCL_OPERATION_RECV) {
    args.push_back({"Src Rank", call.root_or_peer});
  }
  return args;
}

}  // namespace

const char* CollectiveName(schema::NcclOperation operation) {
  switch (operation) {
    case schema::NCCL_OPERATION_ALL_REDUCE: return "allreduce";
    case schema::NCCL_OPERATION_BROADCAST: return "broadcast";
    case schema::NCCL_OPERATION_REDUCE: return "reduce";
    case schema::NCCL_OPERATION_ALL_GATHER: return "_allgather_base";
    case schema::NCCL_OPERATION_REDUCE_SCATTER: return "_reduce_scatter_base";
    case schema::NCCL_OPERATION_SEND: return "send";
    case schema::NCCL_OPERATION_RECV: return "recv";
    case schema::NCCL_OPERATION_ALL_TO_ALL: return "all_to_all";
    case schema::NCCL_OPERATION_GATHER: return "gather";
    case schema::NCCL_OPERATION_SCATTER: return "scatter";
    default: return "unknown";
  }
}

KinetoTraceExport::KinetoTraceExport(std::FILE* out, uint64_t origin_ns,
                                     KinetoExportFigures* figures)
    : writer_(std::make_unique<KinetoWriter>(out, origin_ns, figures)),
      origin_ns_(origin_ns),
      walk_(this) {}

KinetoTraceExport::~KinetoTraceExport() = default;

void KinetoTraceExport::AddWindow(const TraceModel& window, const WindowPart* part) {
  part_ = part;
  walk_.AddWindow(window, 0, part);
  part_ = nullptr;
}

void KinetoTraceExport::OnBeginWindow(const TraceModel& window, size_t process_index) {
  // The previous window's ids end where its collectives' do.
  next_range_id_ = next_collective_id_;
  next_collective_id_ += part_ != nullptr ? part_->id_ranges : KinetoIdRanges(window);
  OnContinueWindow(window, process_index);
}

// A slice continuing the window: the id counters go on.
void KinetoTraceExport::OnContinueWindow(const TraceModel& window, size_t) {
  window_ = &window;
  identity_ = window.identity;
  for (const trace::FileHeader& header : window.headers) {
    if (have_realtime_ || header.clock_anchors_size() == 0) continue;
    const trace::ClockAnchor& anchor = header.clock_anchors(0);
    realtime_offset_ns_ =
        static_cast<int64_t>(anchor.host_realtime_ns() - anchor.host_monotonic_ns());
    have_realtime_ = true;
  }
  next_range_id_ += NumberExternalIds(window.ranges, next_range_id_, &range_ids_);
  next_collective_id_ +=
      NumberExternalIds(window.nccl_calls, next_collective_id_, &collective_ids_);
  call_ids_.clear();
  NameHostRows(window);
}

// The walk gives every host range and NCCL call before the first API call or device record,
// so every External id an API call can take is known here.
const std::vector<uint64_t>& KinetoTraceExport::CallIds() {
  if (call_ids_.size() != window_->api_calls.size()) {
    const std::vector<int32_t> operators = EnclosingRanges(*window_, IsOperatorRange);
    call_ids_.assign(operators.size(), 0);
    for (size_t i = 0; i < operators.size(); ++i) {
      if (operators[i] != kNoIndex) call_ids_[i] = range_ids_[operators[i]];
    }
  }
  return call_ids_;
}

void KinetoTraceExport::NameHostRows(const TraceModel& window) {
  const int64_t pid = window.identity.pid;
  if (named_rows_.insert({pid, UINT64_MAX}).second) {
    writer_->Metadata("process_name", pid, 0, "name", absl::StrCat("Process ", pid));
  }
  for (const auto& [thread, name] : window.thread_names) {
    if (!named_rows_.insert({pid, thread}).second) continue;
    writer_->Metadata("thread_name", pid, thread, "name",
                      absl::StrCat("thread ", thread, " (", window.names.Get(name), ")"));
  }
}

void KinetoTraceExport::OnHostRange(const HostRange& range) {
  KinetoWriter& w = *writer_;
  const TraceModel& window = *window_;
  const int64_t pid = window.identity.pid;
  const std::string name = RangeName(range);
  if (range.type == RangeType::kMark) {
    w.Event("i", HostCategory(range.type), name, pid, range.thread_id, range.start_ns);
    w.json().Key("s");
    w.json().String("t");
    w.json().EndObject();
    return;
  }
  w.Complete(HostCategory(range.type), name, pid, range.thread_id, range.start_ns, range.end_ns);
  const bool annotation = IsKinetoAnnotation(range.type);
  if (range.type == RangeType::kOperator || annotation) {
    // One sequence for both, as torch's: a gpu_user_annotation names its range's id.
    const uint64_t id = range_ids_[&range - window.ranges.data()];
    TimelineArgs args = {{"External id", id}};
    if (range.shapes != 0)
      args.push_back({"Input Dims", std::string(window.names.Get(range.shapes))});
    if (range.dtypes != 0)
      args.push_back({"Input type", std::string(window.names.Get(range.dtypes))});
    w.Args(args);
  }
  w.json().EndObject();
}

void KinetoTraceExport::OnNcclCall(const NcclCall& call) {
  KinetoWriter& w = *writer_;
  const int64_t pid = window_->identity.pid;
  if (!TakesExternalId(call)) {
    w.Complete("cpu_op", NcclFunctionName(call.operation), pid, call.thread_id, call.start_ns,
               call.end_ns);
    w.json().EndObject();
    return;
  }
  w.Complete("cpu_op", "record_param_comms", pid, call.thread_id, call.start_ns, call.end_ns);
  TimelineArgs args = CollectiveArgs(call);
  args.insert(args.begin(), {"External id", collective_ids_[&call - window_->nccl_calls.data()]});
  w.Args(args);
  w.json().EndObject();
}

void KinetoTraceExport::OnApiCall(const ApiCall& call, bool launched) {
  KinetoWriter& w = *writer_;
  const int64_t pid = window_->identity.pid;
  const uint64_t external_id = CallIds()[&call - window_->api_calls.data()];
  w.Complete(call.driver ? "cuda_driver" : "cuda_runtime",
             KinetoApiName(window_->names.Get(call.name)), pid, call.thread_id, call.start_ns,
             call.end_ns);
  TimelineArgs args;
  if (external_id != 0) args.push_back({"External id", external_id});
  args.push_back({"correlation", call.correlation_id});
  w.Args(args);
  w.json().EndObject();
  if (!launched) return;
  w.Flow("s", call.correlation_id, pid, call.thread_id, call.start_ns);
  ++w.figures()->flows;
}

void KinetoTraceExport::OnDeviceActivity(const DeviceActivity& activity) {
  KinetoWriter& w = *writer_;
  devices_.insert(activity.device);
  if (named_rows_.insert({activity.device, UINT64_MAX}).second) {
    w.Metadata("process_name", activity.device, 0, "name", absl::StrCat("GPU ", activity.device));
  }
  // Kineto writes a synchronization's stream as CUPTI's int32 (-1: none, a context or
  // device synchronization) and its row as that number's absolute value.
  const bool sync = activity.kind == DeviceKind::kSynchronization;
  const int64_t stream = sync ? int64_t{static_cast<int32_t>(activity.stream)}
                              : int64_t{activity.stream};
  const uint64_t row = static_cast<uint64_t>(stream < 0 ? -stream : stream);
  if (named_rows_.insert({activity.device, row}).second) {
    w.Metadata("thread_name", activity.device, row, "name", absl::StrCat("stream ", row));
  }
  const std::string name = KinetoDeviceName(*window_, activity);
  w.Complete(DeviceCategory(activity.kind), name, activity.device, row, activity.start_ns,
             activity.end_ns);
  TimelineArgs args;
  uint64_t external_id = activity.api_call != kNoIndex ? CallIds()[activity.api_call] : 0;
  // Kineto gives a synchronization without an operator its own correlation id.
  if (sync && external_id == 0) external_id = activity.correlation_id;
  if (external_id != 0) args.push_back({"External id", external_id});
  if (sync) args.push_back({"cuda_sync_kind", name});
  args.push_back({"device", static_cast<int64_t>(activity.device)});
  args.push_back({"stream", stream});
  args.push_back({"correlation", activity.correlation_id});
  const KernelLaunch* launch = nullptr;
  if (activity.kind == DeviceKind::kKernel && activity.launch != kNoIndex) {
    launch = &window_->kernel_launches[activity.launch];
    args.push_back({"registers per thread", static_cast<uint64_t>(launch->registers_per_thread)});
    args.push_back({"shared memory", static_cast<int64_t>(launch->static_shared_memory +
                                                          launch->dynamic_shared_memory)});
  }
  if (activity.kind == DeviceKind::kMemcpy || activity.kind == DeviceKind::kMemset) {
    args.push_back({"bytes", activity.bytes});
    if (activity.end_ns > activity.start_ns) {
      args.push_back({"memory bandwidth (GB/s)",
                      static_cast<double>(activity.bytes) /
                          static_cast<double>(activity.end_ns - activity.start_ns)});
    }
  }
  w.Args(args, launch);
  w.json().EndObject();
  if (activity.api_call != kNoIndex) {
    w.Flow("f", activity.correlation_id, activity.device, row, activity.start_ns);
  }
}

std::string KinetoTraceExport::RangeName(const HostRange& range) const {
  return range.type == RangeType::kProfileStep ? absl::StrCat("ProfilerStep#", range.step_number)
                                               : std::string(window_->names.Get(range.name));
}

// After the device rows, as Kineto writes them (its finalizeTrace).
void KinetoTraceExport::OnEndSlices() {
  const TraceModel& window = *window_;
  for (const GpuAnnotation& span :
       GpuAnnotations(window, EnclosingRanges(window, IsKinetoAnnotation))) {
    const HostRange& range = window.ranges[span.range];
    // Kineto draws it 1 ns wider on each side, so Chrome shows it above its first and last
    // records (output_json.cpp); torch's traces have it so.
    writer_->Complete("gpu_user_annotation", RangeName(range), span.device, span.stream,
                      span.start_ns > 0 ? span.start_ns - 1 : 0, span.end_ns + 1);
    writer_->Args({{"External id", range_ids_[span.range]}});
    writer_->json().EndObject();
  }
}

absl::Status KinetoTraceExport::End() {
  JsonWriter& json = writer_->json();
  json.EndArray();
  json.Key("displayTimeUnit");
  json.String("ms");
  json.Key("baseTimeNanoseconds");
  json.Int(have_realtime_ ? static_cast<int64_t>(origin_ns_) + realtime_offset_ns_ : 0);
  json.Key("deviceProperties");
  json.BeginArray();
  for (uint32_t device : devices_) {
    json.BeginObject();
    json.Key("id");
    json.Uint(device);
    json.EndObject();
  }
  json.EndArray();
  if (identity_.rank >= 0) {
    json.Key("distributedInfo");
    json.BeginObject();
    json.Key("backend");
    json.String("nccl");
    json.Key("rank");
    json.Int(identity_.rank);
    json.Key("world_size");
    json.Int(identity_.world_size);
    json.EndObject();
  }
  json.EndObject();
  json.Newline();
  json.Flush();
  if (json.failed()) return absl::DataLossError("could not write the whole export (disk full?)");
  return absl::OkStatus();
}

}  // namespace prof::analyzer
