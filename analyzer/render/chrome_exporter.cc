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
#include "analyzer/render/timeline_walk.h"
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
  double Micros(uint64_t ns) const {
    return (static_cast<double>(ns) - static_cast<double>(origin_)) / 1000.0;
  }

  JsonWriter json_;
  uint64_t origin_;
  ChromeExportFigures* figures_;
};

namespace {

// Flow ids must be unique across processes; correlation ids are only unique in one.
uint64_t FlowId(size_t model_index, uint64_t correlation_id) {
  return (static_cast<uint64_t>(model_index) << 40) + correlation_id;
}

}  // namespace

// Writes each item of the walk as it comes, in the walk's order.
class ChromeSink : public TimelineSink {
 public:
  explicit ChromeSink(ChromeWriter* writer) : writer_(writer) {}

  void OnBeginWindow(const TraceModel& window, size_t process_index) override {
    named_.clear();
    OnContinueWindow(window, process_index);
  }
  // A later slice names only the rows the window's earlier slices did not.
  void OnContinueWindow(const TraceModel& slice, size_t process_index) override {
    model_ = &slice;
    index_ = process_index;
    pid_ = slice.identity.pid;
    WriteNames();
  }
  // The recording window as a labeled range on its own row (thread 0: no real thread has
  // that id) from its first to its last event.
  void OnRecordingWindow(uint64_t start_ns, uint64_t end_ns, const std::string& label) override {
    writer_->Metadata("thread_name", pid_, kWindowRow, "recording windows", true);
    writer_->Event("X", label, "window", pid_, kWindowRow, start_ns);
    writer_->Duration(start_ns, end_ns);
    writer_->json().EndObject();
  }
  void OnHostRange(const HostRange& range) override {
    const bool mark = range.type == RangeType::kMark;
    writer_->Event(mark ? "i" : "X", model_->names.Get(range.name), RangeTypeName(range.type), pid_,
                   range.thread_id, range.start_ns);
    if (mark) {
      writer_->json().Key("s");
      writer_->json().String("t");
    } else {
      writer_->Duration(range.start_ns, range.end_ns);
    }
    WriteOperatorDetails(range);
    writer_->json().EndObject();
  }
  void OnNcclCall(const NcclCall& call) override {
    writer_->Event("X", NcclFunctionName(call.operation), "nccl", pid_, call.thread_id,
                   call.start_ns);
    writer_->Duration(call.start_ns, call.end_ns);
    writer_->Args(NcclCallArgs(call));
    writer_->json().EndObject();
  }
  void OnApiCall(const ApiCall& call, bool launched) override {
    writer_->Event("X", model_->names.Get(call.name), call.driver ? "cuda_driver" : "cuda_runtime",
                   pid_, call.thread_id, call.start_ns);
    writer_->Duration(call.start_ns, call.end_ns);
    writer_->Args(ApiCallArgs(*model_, call));
    writer_->json().EndObject();
    if (!launched) return;
    writer_->Event("s", "launch", "async", pid_, call.thread_id, call.start_ns);
    writer_->json().Key("id");
    writer_->json().Uint(FlowId(index_, call.correlation_id));
    writer_->json().EndObject();
    ++writer_->figures()->flows;
  }
  void OnDeviceActivity(const DeviceActivity& activity) override {
    const int64_t pid = GpuPid(index_, activity.device);
    writer_->Event("X", model_->names.Get(activity.name), DeviceKindName(activity.kind), pid,
                   activity.stream, activity.start_ns);
    writer_->Duration(activity.start_ns, activity.end_ns);
    writer_->Args(DeviceActivityArgs(*model_, activity));
    writer_->json().EndObject();
    if (activity.api_call == kNoIndex) return;
    writer_->Event("f", "launch", "async", pid, activity.stream, activity.start_ns);
    writer_->json().Key("id");
    writer_->json().Uint(FlowId(index_, activity.correlation_id));
    writer_->json().Key("bp");
    writer_->json().String("e");
    writer_->json().EndObject();
  }
  // The allocation or free as an instant (address, size, symbolized stack), then the live
  // bytes of the place(s) it changed as counters of the process.
  void OnMemoryChange(const MemoryRecord& record, const MemoryChange& change,
                      const LiveMemory& live) override {
    writer_->Event("i", record.allocate ? "allocate" : "free", "memory", pid_, record.thread_id,
                   record.time_ns);
    writer_->json().Key("s");
    writer_->json().String("t");
    writer_->Args(MemoryArgs(record));
    writer_->json().EndObject();
    if (change.replaced &&
        change.ended->place != change.place) {  // the replaced block's place dropped too
      WriteCounter("memory " + MemoryPlaceName(change.ended->place), record.thread_id,
                   record.time_ns, live.LiveBytes(change.ended->place));
    }
    WriteCounter("memory " + MemoryPlaceName(change.place), record.thread_id, record.time_ns,
                 live.LiveBytes(change.place));
  }
  // The allocator's bytes per device and the host's RSS as counter tracks of the process.
  void OnSampleCounter(const MemorySample& sample, const SampleCounter& counter) override {
    WriteCounter(counter.track, 0, sample.time_ns, counter.bytes);
  }

 private:
  void WriteCounter(absl::string_view track, uint64_t thread, uint64_t time_ns, uint64_t bytes) {
    writer_->Event("C", track, "memory", pid_, thread, time_ns);
    writer_->json().Key("args");
    writer_->json().BeginObject();
    writer_->json().Key("bytes");
    writer_->json().Uint(bytes);
    writer_->json().EndObject();
    writer_->json().EndObject();
  }

  // An operator's details as args, under torch.profiler's names where it has them.
  void WriteOperatorDetails(const HostRange& range) {
    if (range.shapes == 0 && range.dtypes == 0 && range.source == 0) return;
    writer_->json().Key("args");
    writer_->json().BeginObject();
    for (auto [key, id] : {std::pair{"Input Dims", range.shapes},
                           {"Input type", range.dtypes},
                           {"Source", range.source}}) {
      if (id == 0) continue;
      writer_->json().Key(key);
      writer_->json().String(model_->names.Get(id));
    }
    writer_->json().EndObject();
  }

  // The metadata of a row, unless this window named it already.
  void Name(const char* kind, int64_t pid, uint64_t tid, absl::string_view value, bool thread) {
    if (!named_.insert({pid, thread ? tid : ~uint64_t{0}}).second) return;
    writer_->Metadata(kind, pid, tid, value, thread);
  }

  void WriteNames() {
    const TraceModel& model = *model_;
    const std::string rank =
        model.identity.rank >= 0 ? absl::StrCat(" rank ", model.identity.rank) : "";
    Name("process_name", pid_, 0, absl::StrCat("Process ", pid_, " (CPU)", rank), false);
    for (const auto& [thread, name] : model.thread_names) {
      Name("thread_name", pid_, thread,
           absl::StrCat("thread ", thread, ":", model.names.Get(name)), true);
    }
    std::set<std::pair<uint32_t, uint32_t>> streams;
    for (const DeviceActivity& activity : model.device_activities)
      streams.insert({activity.device, activity.stream});
    std::set<uint32_t> devices;
    for (const auto& [device, stream] : streams) {
      if (devices.insert(device).second)
        Name("process_name", GpuPid(index_, device), 0, absl::StrCat("GPU ", device, rank), false);
      Name("thread_name", GpuPid(index_, device), stream, absl::StrCat("stream ", stream), true);
    }
  }

  ChromeWriter* writer_;
  std::set<std::pair<int64_t, uint64_t>> named_;  // this window's named rows: (pid, tid or ~0)
  const TraceModel* model_ = nullptr;
  size_t index_ = 0;
  int64_t pid_ = 0;
};

ChromeTraceExport::ChromeTraceExport(std::FILE* out, uint64_t origin_ns,
                                     ChromeExportFigures* figures)
    : writer_(std::make_unique<ChromeWriter>(out, origin_ns, figures)),
      sink_(std::make_unique<ChromeSink>(writer_.get())),
      walk_(sink_.get()) {
  writer_->Begin();
}

ChromeTraceExport::~ChromeTraceExport() = default;

void ChromeTraceExport::AddWindow(const TraceModel& window, size_t process_index,
                                  const WindowPart* part) {
  walk_.AddWindow(window, process_index, part);
}

absl::Status ChromeTraceExport::End() {
  if (!writer_->End()) return absl::DataLossError("could not write the whole export (disk full?)");
  return absl::OkStatus();
}

absl::Status ExportChromeTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                               ChromeExportFigures* figures) {
  uint64_t origin = std::numeric_limits<uint64_t>::max();
  for (const TraceModel* model : models) origin = std::min(origin, EarliestTime(*model));
  ChromeTraceExport export_(out, origin == std::numeric_limits<uint64_t>::max() ? 0 : origin,
                            figures);
  for (size_t index = 0; index < models.size(); ++index) export_.AddWindow(*models[index], index);
  return export_.End();
}

}  // namespace prof::analyzer
