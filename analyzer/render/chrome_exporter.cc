#include "analyzer/render/chrome_exporter.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/live_memory.h"
#include "analyzer/render/json_writer.h"
#include "analyzer/render/timeline_args.h"
#include "proto/schema_names.h"

namespace prof::analyzer {
namespace {

constexpr uint64_t kWindowRow = 0;

// GPU "processes" get ids far from real pids.
int64_t GpuPid(size_t model_index, uint32_t device) {
  return 1000000000 + static_cast<int64_t>(model_index) * 1000 + device;
}

}  // namespace

class ChromeWriter {
 public:
  ChromeWriter(std::FILE* out, uint64_t origin_ns, ChromeExportFigures* figures)
      : json_(out), origin_(origin_ns), figures_(figures) {}

  void Begin() {
    json_.BeginObject();
    json_.Key("displayTimeUnit");
    json_.String("ms");
    json_.Key("traceEvents");
    json_.BeginArray();
  }
  bool End() {
    json_.EndArray();
    json_.EndObject();
    json_.Newline();
    json_.Flush();
    return !json_.failed();
  }

  // Opens an event object with the common fields; the caller adds args and closes it.
  void Event(const char* phase, absl::string_view name, absl::string_view category, int64_t pid,
             uint64_t tid, uint64_t start_ns) {
    json_.Newline();
    json_.BeginObject();
    json_.Key("ph");
    json_.String(phase);
    json_.Key("name");
    json_.String(name);
    if (!category.empty()) {
      json_.Key("cat");
      json_.String(category);
    }
    json_.Key("pid");
    json_.Int(pid);
    json_.Key("tid");
    json_.Uint(tid);
    json_.Key("ts");
    json_.Double(Micros(start_ns), 3);
    ++figures_->trace_events;
  }
  void Duration(uint64_t start_ns, uint64_t end_ns) {
    json_.Key("dur");
    json_.Double((end_ns - start_ns) / 1000.0, 3);
  }
  void Metadata(const char* name, int64_t pid, uint64_t tid, absl::string_view value, bool thread) {
    json_.Newline();
    json_.BeginObject();
    json_.Key("ph");
    json_.String("M");
    json_.Key("name");
    json_.String(name);
    json_.Key("pid");
    json_.Int(pid);
    if (thread) {
      json_.Key("tid");
      json_.Uint(tid);
    }
    json_.Key("args");
    json_.BeginObject();
    json_.Key("name");
    json_.String(value);
    json_.EndObject();
    json_.EndObject();
  }
  // Writes `"args":{...}` into the open event.
  void Args(const TimelineArgs& args) {
    json_.Key("args");
    json_.BeginObject();
    WriteTimelineArgValues(args, &json_);
    json_.EndObject();
  }
  JsonWriter& json() { return json_; }
  ChromeExportFigures* figures() { return figures_; }

 private:
  double Micros(uint64_t ns) const { return (static_cast<double>(ns) - static_cast<double>(origin_)) / 1000.0; }

  JsonWriter json_;
  uint64_t origin_;
  ChromeExportFigures* figures_;
};

// Live allocations of one process, carried from window to window.
struct MemoryCounterState {
  LiveMemory live;
};

namespace {

// An operator's details as args, under torch.profiler's names where it has them.
void WriteOperatorDetails(const TraceModel& model, const HostRange& range, ChromeWriter* writer) {
  if (range.shapes == 0 && range.dtypes == 0 && range.source == 0) return;
  writer->json().Key("args");
  writer->json().BeginObject();
  for (auto [key, id] : {std::pair{"Input Dims", range.shapes}, {"Input type", range.dtypes},
                         {"Source", range.source}}) {
    if (id == 0) continue;
    writer->json().Key(key);
    writer->json().String(model.names.Get(id));
  }
  writer->json().EndObject();
}

void WriteHostEvents(const TraceModel& model, ChromeWriter* writer) {
  const int64_t pid = model.identity.pid;
  for (const HostRange& range : model.ranges) {
    const bool mark = range.type == RangeType::kMark;
    writer->Event(mark ? "i" : "X", model.names.Get(range.name), RangeTypeName(range.type), pid,
                  range.thread_id, range.start_ns);
    if (mark) {
      writer->json().Key("s");
      writer->json().String("t");
    } else {
      writer->Duration(range.start_ns, range.end_ns);
    }
    WriteOperatorDetails(model, range, writer);
    writer->json().EndObject();
  }
  for (const NcclCall& call : model.nccl_calls) {
    writer->Event("X", NcclFunctionName(call.operation), "nccl", pid, call.thread_id, call.start_ns);
    writer->Duration(call.start_ns, call.end_ns);
    writer->Args(NcclCallArgs(call));
    writer->json().EndObject();
  }
}

// Flow ids must be unique across processes; correlation ids are only unique in one.
uint64_t FlowId(size_t model_index, uint64_t correlation_id) {
  return (static_cast<uint64_t>(model_index) << 40) + correlation_id;
}

void WriteApiCalls(const TraceModel& model, size_t model_index, const std::vector<bool>& launched,
                   ChromeWriter* writer) {
  const int64_t pid = model.identity.pid;
  for (size_t i = 0; i < model.api_calls.size(); ++i) {
    const ApiCall& call = model.api_calls[i];
    writer->Event("X", model.names.Get(call.name), call.driver ? "cuda_driver" : "cuda_runtime", pid,
                  call.thread_id, call.start_ns);
    writer->Duration(call.start_ns, call.end_ns);
    writer->Args(ApiCallArgs(model, call));
    writer->json().EndObject();
    if (!launched[i]) continue;
    writer->Event("s", "launch", "async", pid, call.thread_id, call.start_ns);
    writer->json().Key("id");
    writer->json().Uint(FlowId(model_index, call.correlation_id));
    writer->json().EndObject();
    ++writer->figures()->flows;
  }
}

void WriteDeviceActivities(const TraceModel& model, size_t model_index, ChromeWriter* writer) {
  for (const DeviceActivity& activity : model.device_activities) {
    const int64_t pid = GpuPid(model_index, activity.device);
    writer->Event("X", model.names.Get(activity.name), DeviceKindName(activity.kind), pid, activity.stream,
                  activity.start_ns);
    writer->Duration(activity.start_ns, activity.end_ns);
    writer->Args(DeviceActivityArgs(model, activity));
    writer->json().EndObject();
    if (activity.api_call == kNoIndex) continue;
    writer->Event("f", "launch", "async", pid, activity.stream, activity.start_ns);
    writer->json().Key("id");
    writer->json().Uint(FlowId(model_index, activity.correlation_id));
    writer->json().Key("bp");
    writer->json().String("e");
    writer->json().EndObject();
  }
}

// A place's live bytes as a counter of the process.
void WriteMemoryCounter(const TraceModel& model, const MemoryRecord& record, int32_t place, uint64_t bytes,
                        ChromeWriter* writer) {
  writer->Event("C", "memory " + MemoryPlaceName(place), "memory", model.identity.pid, record.thread_id,
                record.time_ns);
  writer->json().Key("args");
  writer->json().BeginObject();
  writer->json().Key("bytes");
  writer->json().Uint(bytes);
  writer->json().EndObject();
  writer->json().EndObject();
}

// Allocations and frees as instants, live bytes per place as counters: paired by the one
// rule of model/live_memory.h; a free of nothing live is left out.
void WriteMemoryCounters(const TraceModel& model, MemoryCounterState* state, ChromeWriter* writer) {
  for (const MemoryRecord* record : MemoryRecordsByTime(model.memory)) {
    const MemoryChange change = state->live.Apply(*record);
    if (change.unmatched_free) continue;
    // The allocation or free itself, with its address, size and symbolized stack.
    writer->Event("i", record->allocate ? "allocate" : "free", "memory", model.identity.pid, record->thread_id,
                  record->time_ns);
    writer->json().Key("s");
    writer->json().String("t");
    writer->Args(MemoryArgs(*record));
    writer->json().EndObject();
    if (change.replaced && change.ended->place != change.place) {  // the replaced block's place dropped too
      WriteMemoryCounter(model, *record, change.ended->place, state->live.LiveBytes(change.ended->place), writer);
    }
    WriteMemoryCounter(model, *record, change.place, state->live.LiveBytes(change.place), writer);
  }
}

// The allocator's allocated / reserved bytes per device and the host's RSS, sampled at step
// boundaries, as counter tracks of the process (one per name), in time order.
void WriteMemorySamples(const TraceModel& model, ChromeWriter* writer) {
  std::vector<const MemorySample*> samples;
  for (const MemorySample& sample : model.memory_samples) samples.push_back(&sample);
  std::stable_sort(samples.begin(), samples.end(),
                   [](const MemorySample* a, const MemorySample* b) { return a->time_ns < b->time_ns; });
  for (const MemorySample* sample : samples) {
    for (const SampleCounter& counter : MemorySampleCounters(*sample)) {
      writer->Event("C", counter.track, "memory", model.identity.pid, 0, sample->time_ns);
      writer->json().Key("args");
      writer->json().BeginObject();
      writer->json().Key("bytes");
      writer->json().Uint(counter.bytes);
      writer->json().EndObject();
      writer->json().EndObject();
    }
  }
}

void WriteNames(const TraceModel& model, size_t model_index, ChromeWriter* writer) {
  const int64_t pid = model.identity.pid;
  const std::string rank = model.identity.rank >= 0 ? absl::StrCat(" rank ", model.identity.rank) : "";
  writer->Metadata("process_name", pid, 0, absl::StrCat("Process ", pid, " (CPU)", rank), false);
  for (const auto& [thread, name] : model.thread_names) {
    writer->Metadata("thread_name", pid, thread, absl::StrCat("thread ", thread, ":", model.names.Get(name)), true);
  }
  std::set<std::pair<uint32_t, uint32_t>> streams;
  for (const DeviceActivity& activity : model.device_activities) streams.insert({activity.device, activity.stream});
  std::set<uint32_t> devices;
  for (const auto& [device, stream] : streams) {
    if (devices.insert(device).second) {
      writer->Metadata("process_name", GpuPid(model_index, device), 0, absl::StrCat("GPU ", device, rank), false);
    }
    writer->Metadata("thread_name", GpuPid(model_index, device), stream, absl::StrCat("stream ", stream), true);
  }
}

// The recording window this model holds, as a labeled range on its own row (thread 0: no
// real thread has that id) from its first to its last event.
void WriteWindow(const TraceModel& model, ChromeWriter* writer) {
  const uint64_t start = EarliestTime(model);
  const uint64_t end = LatestTime(model);
  if (start > end || model.headers.empty()) return;
  const int64_t pid = model.identity.pid;
  writer->Metadata("thread_name", pid, kWindowRow, "recording windows", true);
  writer->Event("X", WindowLabel(model.headers.front()), "window", pid, kWindowRow, start);
  writer->Duration(start, end);
  writer->json().EndObject();
}

}  // namespace

std::string WindowLabel(const trace::FileHeader& header) {
  std::string label = absl::StrCat("window ", header.window_index());
  if (header.window_end_step() > header.window_first_step()) {
    absl::StrAppend(&label, " (steps ", header.window_first_step(), "-", header.window_end_step() - 1, ")");
  }
  return label;
}

uint64_t LatestTime(const TraceModel& model) {
  uint64_t latest = 0;
  for (const HostRange& r : model.ranges) latest = std::max(latest, r.end_ns);
  for (const ApiCall& c : model.api_calls) latest = std::max(latest, c.end_ns);
  for (const DeviceActivity& d : model.device_activities) latest = std::max(latest, d.end_ns);
  for (const NcclCall& c : model.nccl_calls) latest = std::max(latest, c.end_ns);
  for (const MemoryRecord& m : model.memory) latest = std::max(latest, m.time_ns);
  for (const MemorySample& m : model.memory_samples) latest = std::max(latest, m.time_ns);
  return latest;
}

uint64_t EarliestTime(const TraceModel& model) {
  uint64_t earliest = std::numeric_limits<uint64_t>::max();
  for (const HostRange& r : model.ranges) earliest = std::min(earliest, r.start_ns);
  for (const ApiCall& c : model.api_calls) earliest = std::min(earliest, c.start_ns);
  for (const DeviceActivity& d : model.device_activities) earliest = std::min(earliest, d.start_ns);
  for (const NcclCall& c : model.nccl_calls) earliest = std::min(earliest, c.start_ns);
  for (const MemoryRecord& m : model.memory) earliest = std::min(earliest, m.time_ns);
  for (const MemorySample& m : model.memory_samples) earliest = std::min(earliest, m.time_ns);
  return earliest;
}

ChromeTraceExport::ChromeTraceExport(std::FILE* out, uint64_t origin_ns, ChromeExportFigures* figures)
    : writer_(std::make_unique<ChromeWriter>(out, origin_ns, figures)) {
  writer_->Begin();
}

ChromeTraceExport::~ChromeTraceExport() = default;

void ChromeTraceExport::AddWindow(const TraceModel& window, size_t process_index) {
  std::unique_ptr<MemoryCounterState>& memory = memory_[process_index];
  if (!memory) memory = std::make_unique<MemoryCounterState>();
  std::vector<bool> launched(window.api_calls.size(), false);
  for (const DeviceActivity& activity : window.device_activities) {
    if (activity.api_call != kNoIndex) launched[activity.api_call] = true;
  }
  WriteNames(window, process_index, writer_.get());
  WriteWindow(window, writer_.get());
  WriteHostEvents(window, writer_.get());
  WriteApiCalls(window, process_index, launched, writer_.get());
  WriteDeviceActivities(window, process_index, writer_.get());
  WriteMemoryCounters(window, memory.get(), writer_.get());
  WriteMemorySamples(window, writer_.get());
}

absl::Status ChromeTraceExport::End() {
  if (!writer_->End()) return absl::DataLossError("could not write the whole export (disk full?)");
  return absl::OkStatus();
}

absl::Status ExportChromeTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                               ChromeExportFigures* figures) {
  uint64_t origin = std::numeric_limits<uint64_t>::max();
  for (const TraceModel* model : models) origin = std::min(origin, EarliestTime(*model));
  ChromeTraceExport export_(out, origin == std::numeric_limits<uint64_t>::max() ? 0 : origin, figures);
  for (size_t index = 0; index < models.size(); ++index) export_.AddWindow(*models[index], index);
  return export_.End();
}

}  // namespace prof::analyzer
