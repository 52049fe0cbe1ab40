#include "analyzer/render/perfetto_exporter.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "analyzer/render/chrome_exporter.h"
#include "analyzer/render/perfetto_trace.pb.h"
#include "analyzer/render/timeline_args.h"

namespace prof::analyzer {

enum class RowSource : uint8_t { kWindow, kHostRange, kApiCall, kLaunch, kNccl, kDevice, kMemory };

struct PerfettoRow {
  uint64_t track = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  // A std::string (the window's label), HostRange, ApiCall (kApiCall, or kLaunch when a
  // device record names it), NcclCall, DeviceActivity or MemoryRecord.
  const void* record = nullptr;
  RowSource source = RowSource::kWindow;
  bool instant = false;
};
static_assert(sizeof(PerfettoRow) <= 40, "rows are held per event of a slice");

namespace {

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

// What a row shows besides its times, read from its record when it is written.
struct RowDetails {
  std::string name;
  const char* category = "";
  TimelineArgs args;
  uint64_t flow_out = 0;  // 0: none
  uint64_t flow_in = 0;   // 0: none
};

RowDetails Details(const PerfettoRow& row, const TraceModel* window, size_t process_index) {
  RowDetails details;
  switch (row.source) {
    case RowSource::kWindow:
      details.name = *static_cast<const std::string*>(row.record);
      details.category = "window";
      break;
    case RowSource::kHostRange: {
      const auto& range = *static_cast<const HostRange*>(row.record);
      details.name = std::string(window->names.Get(range.name));
      details.category = RangeTypeName(range.type);
      break;
    }
    case RowSource::kApiCall:
    case RowSource::kLaunch: {
      const auto& call = *static_cast<const ApiCall*>(row.record);
      details.name = std::string(window->names.Get(call.name));
      details.category = call.driver ? "cuda_driver" : "cuda_runtime";
      details.args = ApiCallArgs(*window, call);
      if (row.source == RowSource::kLaunch)
        details.flow_out = FlowId(process_index, call.correlation_id);
      break;
    }
    case RowSource::kNccl: {
      const auto& call = *static_cast<const NcclCall*>(row.record);
      details.name = NcclFunctionName(call.operation);
      details.category = "nccl";
      details.args = NcclCallArgs(call);
      break;
    }
    case RowSource::kDevice: {
      const auto& activity = *static_cast<const DeviceActivity*>(row.record);
      details.name = std::string(window->names.Get(activity.name));
      details.category = DeviceKindName(activity.kind);
      details.args = DeviceActivityArgs(*window, activity);
      if (activity.api_call != kNoIndex)
        details.flow_in = FlowId(process_index, activity.correlation_id);
      break;
    }
    case RowSource::kMemory: {
      const auto& record = *static_cast<const MemoryRecord*>(row.record);
      details.name = record.allocate ? "allocate" : "free";
      details.category = "memory";
      details.args = MemoryArgs(record);
      break;
    }
  }
  return details;
}

}  // namespace

PerfettoTraceExport::PerfettoTraceExport(std::FILE* out, PerfettoExportFigures* figures)
    : tracks_(out, figures), figures_(figures), walk_(this) {
  // The first packet of the sequence says no earlier state exists (Perfetto's rule for the
  // start of a sequence); this export uses no interning, so nothing is ever cleared again.
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kPerfettoSequence);
  packet.set_sequence_flags(perfetto::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
  tracks_.Write(packet);
}

PerfettoTraceExport::~PerfettoTraceExport() = default;

void PerfettoTraceExport::OnBeginWindow(const TraceModel& window, size_t process_index) {
  window_ = &window;
  index_ = process_index;
  slices_.clear();
  pending_nccl_.clear();
}

void PerfettoTraceExport::OnRecordingWindow(uint64_t start_ns, uint64_t end_ns,
                                            const std::string& label) {
  const uint64_t track =
      tracks_.Child(tracks_.Process(*window_, index_), PerfettoUuid(kPerfettoWindows, index_, 0),
                    "recording windows", false);
  labels_.push_back(label);
  // A window in slices: written at its end, when its span is known (AddSlice).
  (carry_ ? carried_window_ : slices_)
      .push_back({track, start_ns, end_ns, &labels_.back(), RowSource::kWindow, false});
}

void PerfettoTraceExport::OnHostRange(const HostRange& range) {
  const bool mark = range.type == RangeType::kMark;
  slices_.push_back({tracks_.Thread(*window_, index_, range.thread_id), range.start_ns,
                     mark ? range.start_ns : range.end_ns, &range, RowSource::kHostRange, mark});
}

// Held until the API calls are in: tracks are described in the order rows are collected,
// and this export has always collected a window's API calls before its NCCL calls.
void PerfettoTraceExport::OnNcclCall(const NcclCall& call) { pending_nccl_.push_back(&call); }

void PerfettoTraceExport::OnApiCall(const ApiCall& call, bool launched) {
  slices_.push_back({tracks_.Thread(*window_, index_, call.thread_id), call.start_ns, call.end_ns,
                     &call, launched ? RowSource::kLaunch : RowSource::kApiCall, false});
}

void PerfettoTraceExport::CollectNcclCalls() {
  for (const NcclCall* call : pending_nccl_) {
    slices_.push_back({tracks_.Thread(*window_, index_, call->thread_id), call->start_ns,
                       call->end_ns, call, RowSource::kNccl, false});
  }
  pending_nccl_.clear();
}

void PerfettoTraceExport::OnDeviceActivity(const DeviceActivity& activity) {
  CollectNcclCalls();  // the API calls are all in
  slices_.push_back({tracks_.Stream(*window_, index_, activity.device, activity.stream),
                     activity.start_ns, activity.end_ns, &activity, RowSource::kDevice, false});
}

void PerfettoTraceExport::OnEndSlices() {
  CollectNcclCalls();
  WriteSlices(&slices_);
  slices_.clear();
  if (!carry_) labels_.clear();  // a sliced window's label is written at its end
}

// A place's live bytes as a byte counter track of the process.
void PerfettoTraceExport::WriteMemoryCounter(const TraceModel& window, size_t process_index,
                                             uint64_t time_ns, int32_t place, uint64_t bytes) {
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kPerfettoSequence);
  packet.set_timestamp(time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(perfetto::TrackEvent::TYPE_COUNTER);
  event->set_track_uuid(
      tracks_.Child(tracks_.Process(window, process_index),
                    PerfettoUuid(kPerfettoMemory, process_index, static_cast<uint32_t>(place)),
                    "memory " + MemoryPlaceName(place), true));
  event->set_counter_value(static_cast<int64_t>(bytes));
  tracks_.Write(packet);
}

// An allocation or free as an instant with its stack, then the live bytes of the place(s)
// it changed as byte counters.
void PerfettoTraceExport::OnMemoryChange(const MemoryRecord& record, const MemoryChange& change,
                                         const analyzer::LiveMemory& live) {
  const PerfettoRow instant{tracks_.Thread(*window_, index_, record.thread_id),
                            record.time_ns,
                            record.time_ns,
                            &record,
                            RowSource::kMemory,
                            true};
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
  const uint64_t uuid = PerfettoUuid(kPerfettoMemorySample, index_,
                                     static_cast<uint32_t>(sample.device), counter.slot);
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kPerfettoSequence);
  packet.set_timestamp(sample.time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(perfetto::TrackEvent::TYPE_COUNTER);
  event->set_track_uuid(
      tracks_.Child(tracks_.Process(*window_, index_), uuid, counter.track, true));
  event->set_counter_value(static_cast<int64_t>(counter.bytes));
  tracks_.Write(packet);
}

void PerfettoTraceExport::WriteEvent(uint64_t time_ns, int type, const PerfettoRow& row,
                                     bool with_details) {
  perfetto::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kPerfettoSequence);
  packet.set_timestamp(time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(static_cast<perfetto::TrackEvent::Type>(type));
  event->set_track_uuid(row.track);
  if (with_details) {
    RowDetails details = Details(row, window_, index_);
    event->set_name(std::move(details.name));
    event->add_categories(details.category);
    for (const TimelineArg& arg : details.args) SetAnnotation(arg, event->add_debug_annotations());
    if (details.flow_out) {
      event->add_flow_ids(details.flow_out);
      ++figures_->flows;
    }
    if (details.flow_in) event->add_terminating_flow_ids(details.flow_in);
  }
  tracks_.Write(packet);
}

// Track events must nest on their track: per track, in start order (outer first), each
// slice ends before the next one that starts after it. A slice that starts inside an open
// one but ends after it (records converted from the CUPTI clock can overlap by a
// nanosecond) ends the open one early, at its own start: the later slice keeps its whole
// duration (counted in clamped_slices).
void PerfettoTraceExport::WriteSlices(std::vector<PerfettoRow>* slices) {
  std::stable_sort(slices->begin(), slices->end(), [](const PerfettoRow& a, const PerfettoRow& b) {
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
  for (const PerfettoRow& slice : *slices) {
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
  packet.set_trusted_packet_sequence_id(kPerfettoSequence);
  packet.set_timestamp(time_ns);
  perfetto::TrackEvent* event = packet.mutable_track_event();
  event->set_type(perfetto::TrackEvent::TYPE_SLICE_END);
  event->set_track_uuid(track);
  tracks_.Write(packet);
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
  labels_.clear();
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
    PerfettoRow& window = carried_window_.back();
    window.start_ns = std::min(window.start_ns, span.start_ns);
    window.end_ns = std::max(window.end_ns, span.end_ns);
  }
}

absl::Status PerfettoTraceExport::End() {
  EndCarried();
  if (!tracks_.Flush()) return absl::DataLossError("could not write the whole export (disk full?)");
  return absl::OkStatus();
}

absl::Status ExportPerfettoTrace(const std::vector<const TraceModel*>& models, std::FILE* out,
                                 PerfettoExportFigures* figures) {
  PerfettoTraceExport export_(out, figures);
  for (size_t index = 0; index < models.size(); ++index) export_.AddWindow(*models[index], index);
  return export_.End();
}

}  // namespace prof::analyzer
