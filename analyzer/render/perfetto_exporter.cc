#include "analyzer/render/perfetto_exporter.h"

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/perfetto_trace.pb.h"
#include "analyzer/render/timeline_args.h"

namespace prof::analyzer {

// One slice or instant of a track, as collected from a window before the track's events are
// put in nesting order.
struct TimelineSlice {
  uint64_t track = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool instant = false;
  std::string name;
  std::string category;
  TimelineArgs args;
  uint64_t flow_out = 0;  // 0: none
  uint64_t flow_in = 0;   // 0: none
};

namespace {

// Perfetto tracks are named by 64-bit uuids: a mix of what the track is and whose.
uint64_t Uuid(uint64_t kind, uint64_t process_index, uint64_t a, uint64_t b = 0) {
  uint64_t x = kind * 0x9E3779B97F4A7C15ull ^ (process_index + 1) * 0xBF58476D1CE4E5B9ull;
  for (uint64_t part : {a, b}) {
    x ^= part + 0x9E3779B97F4A7C15ull + (x << 6) + (x >> 2);
    x = (x ^ (x >> 31)) * 0x94D049BB133111EBull;
  }
  return x == 0 ? 1 : x;
}

enum TrackKind : uint64_t {
  kProcess = 1,
  kThread,
  kGpu,
  kStream,
  kWindows,
  kMemory,
  kMemorySample
};

constexpr uint32_t kSequence = 1;  // every packet comes from this one writer

// GPU "processes" get pids far from real ones (as in the Chrome export).
int32_t GpuPid(size_t process_index, uint32_t device) {
  return static_cast<int32_t>(1000000000 + process_index * 1000 + device);
}

// Flow ids must be unique across processes; correlation ids are only unique in one.
uint64_t FlowId(size_t process_index, uint64_t correlation_id) {
  return (static_cast<uint64_t>(process_index) << 40) + correlation_id;
}

void SetAnnotation(const TimelineArg& arg, perfetto::DebugAnnotation* annotation) {
  annotation->set_name(arg.key);
  if (const auto* i = std::get_if<int64_t>(&arg.value)) annotation->set_int_value(*i);
  if (const auto* u = std::get_if<uint64_t>(&arg.value)) annotation->set_uint_value(*u);
  if (const auto* d = std::get_if<double>(&arg.value)) annotation->set_double_value(*d);
  if (const auto* text = std::get_if<std::string>(&arg.value)) annotation->set_string_value(*text);
}

std::string RankSuffix(const TraceModel& model) {
  return model.identity.rank >= 0 ? absl::StrCat(" rank ", model.identity.rank) : "";
}

}  // namespace

PerfettoTraceExport::PerfettoTraceExport(std::FILE* out, PerfettoExportFigures* figures)
    : out_(out), figures_(figures), walk_(this) {
  // The first packet of the sequence says no earlier state exists (Perfetto's rule for the
  // start of a sequence); this export uses no interning, so nothing is ever cleared again.
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  packet.set_sequence_flags(perfetto::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
  WritePacket(packet.SerializeAsString());
}

PerfettoTraceExport::~PerfettoTraceExport() = default;

// Trace.packet (field 1, length-delimited): tag, length, bytes.
void PerfettoTraceExport::WritePacket(const std::string& serialized_packet) {
  unsigned char header[11];
  size_t size = 0;
  header[size++] = 0x0A;
  uint64_t length = serialized_packet.size();
  do {
    header[size++] = static_cast<unsigned char>((length & 0x7F) | (length > 0x7F ? 0x80 : 0));
    length >>= 7;
  } while (length);
  if (std::fwrite(header, 1, size, out_) != size ||
      std::fwrite(serialized_packet.data(), 1, serialized_packet.size(), out_) !=
          serialized_packet.size()) {
    failed_ = true;
  }
  ++figures_->packets;
}

uint64_t PerfettoTraceExport::ProcessTrack(const TraceModel& model, size_t process_index) {
  const uint64_t uuid = Uuid(kProcess, process_index, 0);
  if (!described_.insert(uuid).second) return uuid;
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  perfetto::TrackDescriptor* track = packet.mutable_track_descriptor();
  track->set_uuid(uuid);
  track->mutable_process()->set_pid(static_cast<int32_t>(model.identity.pid));
  track->mutable_process()->set_process_name(
      absl::StrCat("Process ", model.identity.pid, " (CPU)", RankSuffix(model)));
  WritePacket(packet.SerializeAsString());
  return uuid;
}

uint64_t PerfettoTraceExport::ThreadTrack(const TraceModel& model, size_t process_index,
                                          uint64_t thread) {
  const uint64_t uuid = Uuid(kThread, process_index, thread);
  if (!described_.insert(uuid).second) return uuid;
  ProcessTrack(model, process_index);
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  perfetto::TrackDescriptor* track = packet.mutable_track_descriptor();
  track->set_uuid(uuid);
  track->set_parent_uuid(Uuid(kProcess, process_index, 0));
  perfetto::ThreadDescriptor* descriptor = track->mutable_thread();
  descriptor->set_pid(static_cast<int32_t>(model.identity.pid));
  descriptor->set_tid(static_cast<int64_t>(thread));
  const auto name = model.thread_names.find(thread);
  descriptor->set_thread_name(
      name == model.thread_names.end()
          ? absl::StrCat("thread ", thread)
          : absl::StrCat("thread ", thread, ":", model.names.Get(name->second)));
  WritePacket(packet.SerializeAsString());
  return uuid;
}

uint64_t PerfettoTraceExport::GpuTrack(const TraceModel& model, size_t process_index,
                                       uint32_t device) {
  const uint64_t uuid = Uuid(kGpu, process_index, device);
  if (!described_.insert(uuid).second) return uuid;
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  perfetto::TrackDescriptor* track = packet.mutable_track_descriptor();
  track->set_uuid(uuid);
  track->mutable_process()->set_pid(GpuPid(process_index, device));
  track->mutable_process()->set_process_name(absl::StrCat("GPU ", device, RankSuffix(model)));
  WritePacket(packet.SerializeAsString());
  return uuid;
}

uint64_t PerfettoTraceExport::StreamTrack(const TraceModel& model, size_t process_index,
                                          uint32_t device, uint32_t stream) {
  return ChildTrack(GpuTrack(model, process_index, device),
                    Uuid(kStream, process_index, device, stream), absl::StrCat("stream ", stream),
                    false);
}

uint64_t PerfettoTraceExport::ChildTrack(uint64_t parent, uint64_t uuid, const std::string& name,
                                         bool bytes_counter) {
  if (!described_.insert(uuid).second) return uuid;
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  perfetto::TrackDescriptor* track = packet.mutable_track_descriptor();
  track->set_uuid(uuid);
  track->set_parent_uuid(parent);
  track->set_name(name);
  if (bytes_counter)
    track->mutable_counter()->set_unit(perfetto::CounterDescriptor::UNIT_SIZE_BYTES);
  WritePacket(packet.SerializeAsString());
  return uuid;
}

void PerfettoTraceExport::OnBeginWindow(const TraceModel& window, size_t process_index) {
  window_ = &window;
  index_ = process_index;
  slices_.clear();
  pending_nccl_.clear();
}

void PerfettoTraceExport::OnRecordingWindow(uint64_t start_ns, uint64_t end_ns,
                                            const std::string& label) {
  const uint64_t track = ChildTrack(ProcessTrack(*window_, index_), Uuid(kWindows, index_, 0),
                                    "recording windows", false);
  // A window in slices: written at its end, when its span is known (AddSlice).
  (carry_ ? carried_window_ : slices_)
      .push_back({track, start_ns, end_ns, false, label, "window", {}, 0, 0});
}

void PerfettoTraceExport::OnHostRange(const HostRange& range) {
  const bool mark = range.type == RangeType::kMark;
  slices_.push_back({ThreadTrack(*window_, index_, range.thread_id),
                     range.start_ns,
                     mark ? range.start_ns : range.end_ns,
                     mark,
                     std::string(window_->names.Get(range.name)),
                     RangeTypeName(range.type),
                     {},
                     0,
                     0});
}

// Held until the API calls are in: tracks are described in the order rows are collected,
// and this export has always collected a window's API calls before its NCCL calls.
void PerfettoTraceExport::OnNcclCall(const NcclCall& call) { pending_nccl_.push_back(&call); }

void PerfettoTraceExport::OnApiCall(const ApiCall& call, bool launched) {
  slices_.push_back({ThreadTrack(*window_, index_, call.thread_id), call.start_ns, call.end_ns,
                     false, std::string(window_->names.Get(call.name)),
                     call.driver ? "cuda_driver" : "cuda_runtime", ApiCallArgs(*window_, call),
                     launched ? FlowId(index_, call.correlation_id) : 0, 0});
}

void PerfettoTraceExport::CollectNcclCalls() {
  for (const NcclCall* call : pending_nccl_) {
    slices_.push_back({ThreadTrack(*window_, index_, call->thread_id), call->start_ns, call->end_ns,
                       false, NcclFunctionName(call->operation), "nccl", NcclCallArgs(*call), 0,
                       0});
  }
  pending_nccl_.clear();
}

void PerfettoTraceExport::OnDeviceActivity(const DeviceActivity& activity) {
  CollectNcclCalls();  // the API calls are all in
  const uint64_t flow = activity.api_call == kNoIndex ? 0 : FlowId(index_, activity.correlation_id);
  slices_.push_back({StreamTrack(*window_, index_, activity.device, activity.stream),
                     activity.start_ns, activity.end_ns, false,
                     std::string(window_->names.Get(activity.name)), DeviceKindName(activity.kind),
                     DeviceActivityArgs(*window_, activity), 0, flow});
}

void PerfettoTraceExport::OnEndSlices() {
  CollectNcclCalls();
  WriteSlices(&slices_);
  slices_.clear();
}

// A place's live bytes as a byte counter track of the process.
void PerfettoTraceExport::WriteMemoryCounter(const TraceModel& window, size_t process_index,
                                             uint64_t time_ns, int32_t place, uint64_t bytes) {
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  packet.set_timestamp(time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(perfetto::TrackEvent::TYPE_COUNTER);
  event->set_track_uuid(ChildTrack(ProcessTrack(window, process_index),
                                   Uuid(kMemory, process_index, static_cast<uint32_t>(place)),
                                   "memory " + MemoryPlaceName(place), true));
  event->set_counter_value(static_cast<int64_t>(bytes));
  WritePacket(packet.SerializeAsString());
}

// An allocation or free as an instant with its stack, then the live bytes of the place(s)
// it changed as byte counters.
void PerfettoTraceExport::OnMemoryChange(const MemoryRecord& record, const MemoryChange& change,
                                         const analyzer::LiveMemory& live) {
  TimelineSlice instant{ThreadTrack(*window_, index_, record.thread_id),
                        record.time_ns,
                        record.time_ns,
                        true,
                        record.allocate ? "allocate" : "free",
                        "memory",
                        MemoryArgs(record),
                        0,
                        0};
  WriteEvent(record.time_ns, perfetto::TrackEvent::TYPE_INSTANT, instant, true);
  if (change.replaced &&
      change.ended->place != change.place) {  // the replaced block's place dropped too
    const int32_t old_place = change.ended->place;
    WriteMemoryCounter(*window_, index_, record.time_ns, old_place, live.LiveBytes(old_place));
  }
  WriteMemoryCounter(*window_, index_, record.time_ns, change.place, live.LiveBytes(change.place));
}

// The allocator's allocated / reserved bytes per device and the host's RSS as byte counter
// tracks of the process.
void PerfettoTraceExport::OnSampleCounter(const MemorySample& sample,
                                          const SampleCounter& counter) {
  const uint64_t uuid =
      Uuid(kMemorySample, index_, static_cast<uint32_t>(sample.device), counter.slot);
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  packet.set_timestamp(sample.time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(perfetto::TrackEvent::TYPE_COUNTER);
  event->set_track_uuid(ChildTrack(ProcessTrack(*window_, index_), uuid, counter.track, true));
  event->set_counter_value(static_cast<int64_t>(counter.bytes));
  WritePacket(packet.SerializeAsString());
}

void PerfettoTraceExport::WriteEvent(uint64_t time_ns, int type, const TimelineSlice& slice,
                                     bool with_details) {
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  packet.set_timestamp(time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(static_cast<perfetto::TrackEvent::Type>(type));
  event->set_track_uuid(slice.track);
  if (with_details) {
    event->set_name(slice.name);
    event->add_categories(slice.category);
    for (const TimelineArg& arg : slice.args) SetAnnotation(arg, event->add_debug_annotations());
    if (slice.flow_out) {
      event->add_flow_ids(slice.flow_out);
      ++figures_->flows;
    }
    if (slice.flow_in) event->add_terminating_flow_ids(slice.flow_in);
  }
  WritePacket(packet.SerializeAsString());
}

// Track events must nest on their track: per track, in start order (outer first), each
// slice ends before the next one that starts after it. A slice that starts inside an open
// one but ends after it (records converted from the CUPTI clock can overlap by a
// nanosecond) ends the open one early, at its own start: the later slice keeps its whole
// duration (counted in clamped_slices).
void PerfettoTraceExport::WriteSlices(std::vector<TimelineSlice>* slices) {
  std::stable_sort(slices->begin(), slices->end(),
                   [](const TimelineSlice& a, const TimelineSlice& b) {
                     if (a.track != b.track) return a.track < b.track;
                     if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
                     return a.end_ns > b.end_ns;
                   });
  std::vector<OpenSlice> open;  // the current track's, outermost first
  auto end_top = [&] {
    WriteEnd(open.back().track, open.back().end_ns);
    open.pop_back();
  };
  // Done with the current track: its open slices end, or are carried to the next slice.
  auto leave_track = [&] {
    if (carry_ && !open.empty()) {
      carried_[open.back().track] = std::move(open);
      open.clear();
    }
    while (!open.empty()) end_top();
  };
  bool have_track = false;
  uint64_t track = 0;
  for (TimelineSlice& slice : *slices) {
    if (!have_track || slice.track != track) {
      if (have_track) leave_track();
      have_track = true;
      track = slice.track;
      const auto carried = carried_.find(track);
      if (carried != carried_.end()) {
        open = std::move(carried->second);
        carried_.erase(carried);
      }
    }
    while (!open.empty() && open.back().end_ns <= slice.start_ns) end_top();
    while (!open.empty() && slice.end_ns > open.back().end_ns) {
      open.back().end_ns = slice.start_ns;
      ++figures_->clamped_slices;
      end_top();
    }
    if (slice.instant) {
      WriteEvent(slice.start_ns, perfetto::TrackEvent::TYPE_INSTANT, slice, true);
      continue;
    }
    WriteEvent(slice.start_ns, perfetto::TrackEvent::TYPE_SLICE_BEGIN, slice, true);
    ++figures_->slices;
    open.push_back({slice.track, slice.end_ns});
  }
  if (have_track) leave_track();
}

void PerfettoTraceExport::WriteEnd(uint64_t track, uint64_t time_ns) {
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  packet.set_timestamp(time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(perfetto::TrackEvent::TYPE_SLICE_END);
  event->set_track_uuid(track);
  WritePacket(packet.SerializeAsString());
}

void PerfettoTraceExport::EndCarried() {
  for (auto& [track, open] : carried_) {
    while (!open.empty()) {
      WriteEnd(track, open.back().end_ns);
      open.pop_back();
    }
  }
  carried_.clear();
  const bool carry = carry_;
  carry_ = false;
  WriteSlices(&carried_window_);
  carried_window_.clear();
  carry_ = carry;
}

void PerfettoTraceExport::AddWindow(const TraceModel& window, size_t process_index) {
  EndCarried();
  carry_ = false;
  walk_.AddWindow(window, process_index);
}

void PerfettoTraceExport::AddSlice(const TraceModel& slice, size_t process_index,
                                   const WindowPart& part) {
  if (!part.continues) EndCarried();
  carry_ = true;
  WindowPart span = part;
  span.start_ns = EarliestTime(slice);
  span.end_ns = LatestTime(slice);
  walk_.AddWindow(slice, process_index, &span);
  if (part.continues && !carried_window_.empty()) {
    TimelineSlice& window = carried_window_.back();
    window.start_ns = std::min(window.start_ns, span.start_ns);
    window.end_ns = std::max(window.end_ns, span.end_ns);
  }
}

absl::Status PerfettoTraceExport::End() {
  EndCarried();
  if (std::fflush(out_) != 0) failed_ = true;
  if (failed_) return absl::DataLossError("could not write the whole export (disk full?)");
  return absl::OkStatus();
}

absl::Status ExportPerfettoTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                                 PerfettoExportFigures* figures) {
  PerfettoTraceExport export_(out, figures);
  for (size_t index = 0; index < models.size(); ++index) export_.AddWindow(*models[index], index);
  return export_.End();
}

}  // namespace prof::analyzer
