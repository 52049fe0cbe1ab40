#include "analyzer/read/window_slicer.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "analyzer/model/correlation.h"
#include "analyzer/model/model_merge.h"

namespace prof::analyzer {
namespace {

constexpr uint32_t kUnmapped = ~uint32_t{0};

// The records that stay after a split: the names and kernel launches they use,
// re-interned / re-numbered on first use into `to`, so what stays holds only its own.
struct Rest {
  Rest(const TraceModel& from, TraceModel* to)
      : from(from),
        to(to),
        names(from.names.size(), kUnmapped),
        launches(from.kernel_launches.size(), kUnmapped) {
    if (!names.empty()) names[0] = 0;
  }
  NameId Name(NameId id) {
    if (id >= names.size()) return 0;
    uint32_t& slot = names[id];
    if (slot == kUnmapped) slot = to->names.Intern(from.names.Get(id));
    return slot;
  }
  int32_t Launch(int32_t index) {
    if (index == kNoIndex || static_cast<size_t>(index) >= launches.size()) return kNoIndex;
    uint32_t& slot = launches[index];
    if (slot == kUnmapped) {
      slot = static_cast<uint32_t>(to->kernel_launches.size());
      to->kernel_launches.push_back(from.kernel_launches[index]);
      to->kernel_launches.back().name = Name(from.kernel_launches[index].name);
    }
    return static_cast<int32_t>(slot);
  }

  const TraceModel& from;
  TraceModel* to;
  std::vector<uint32_t> names;
  std::vector<uint32_t> launches;
};

// The time that decides a device record's side: its launching call's, when linked.
uint64_t DeviceTime(const TraceModel& model, const DeviceActivity& activity) {
  return activity.api_call != kNoIndex ? model.api_calls[activity.api_call].start_ns
                                       : activity.start_ns;
}

// Records of `model` whose time is before `cut_ns`.
uint64_t CountBefore(const TraceModel& model, uint64_t cut_ns) {
  uint64_t count = 0;
  for (const HostRange& range : model.ranges) count += range.start_ns < cut_ns;
  for (const ApiCall& call : model.api_calls) count += call.start_ns < cut_ns;
  for (const DeviceActivity& activity : model.device_activities)
    count += DeviceTime(model, activity) < cut_ns;
  for (const NcclCall& call : model.nccl_calls) count += call.start_ns < cut_ns;
  for (const MemoryRecord& record : model.memory) count += record.time_ns < cut_ns;
  for (const MemorySample& sample : model.memory_samples) count += sample.step_time_ns() < cut_ns;
  return count;
}

// Calls `visit` with each record vector of `model` (a TraceModel, const or not): the
// records counted in event_count, which a builder continuing the model appends to.
template <typename Model, typename Visit>
void ForEachRecordVector(Model* model, Visit visit) {
  visit(&model->ranges);
  visit(&model->api_calls);
  visit(&model->device_activities);
  visit(&model->nccl_calls);
  visit(&model->memory);
  visit(&model->memory_samples);
}

uint64_t RecordCount(const TraceModel& model) {
  uint64_t count = 0;
  ForEachRecordVector(&model, [&](const auto* records) { count += records->size(); });
  return count;
}

using RecordSizes = std::array<size_t, 6>;  // in ForEachRecordVector's order

RecordSizes SizesOf(const TraceModel& model) {
  RecordSizes sizes;
  size_t i = 0;
  ForEachRecordVector(&model, [&](const auto* records) { sizes[i++] = records->size(); });
  return sizes;
}

// Room in the records left after a cut (`held`: how many each vector held before it) for
// the next segment's builder to continue them (TakeHeld): grown from a few thousand there,
// they copied three quarters of a segment's records a segment. A segment like the last
// with a quarter to spare, rounded up to a power of two: consecutive slices then ask for
// blocks of one size, and the allocator reuses the one the slice just freed (heap_policy.h)
// instead of growing the heap. Only once the slice is gone: reserved while it is still
// held, both stay resident (a peak of twice the records).
void MakeRoomToContinue(const RecordSizes& held, TraceModel* model) {
  size_t i = 0;
  ForEachRecordVector(model, [&](auto* records) {
    const size_t room = held[i] + held[i] / 4;
    ++i;
    size_t capacity = 1;
    while (capacity < room) capacity *= 2;
    records->reserve(capacity);
  });
}

// Moves the records for which `before(record)` holds to `slice` (empty) and keeps the others,
// in order, in `records`. `place(record, goes_before, index)` renames a record for its side;
// `index`: its position there. The records before the cut stay where they are and their
// vector becomes the slice's; those after it are written to a vector of their own: a cut
// is chosen late in what is held, so they are few, where writing the slice out copied
// almost every record of the file once more (and faulted in its pages).
template <typename T, typename Before, typename Place>
void SplitRecords(std::vector<T>* records, std::vector<T>* slice, Before before, Place place) {
  std::vector<T> after;
  size_t kept = 0;
  for (size_t i = 0; i < records->size(); ++i) {
    T& record = (*records)[i];
    const bool goes = before(record);
    place(record, goes, goes ? kept : after.size());
    if (goes) {
      if (kept != i) (*records)[kept] = std::move(record);
      ++kept;
    } else {
      after.push_back(std::move(record));
    }
  }
  records->erase(records->begin() + kept, records->end());
  slice->swap(*records);  // `slice` was empty
  records->swap(after);
}

// `late`: counts the records before `late_ns` (CountBefore's rule) in the same pass.
void SplitHostRecords(uint64_t cut_ns, uint64_t late_ns, uint64_t* late, TraceModel* model,
                      TraceModel* slice, Rest* rest) {
  SplitRecords(
      &model->ranges, &slice->ranges,
      [&](const HostRange& range) { return range.start_ns < cut_ns; },
      [&](HostRange& range, bool goes, size_t) {
        *late += range.start_ns < late_ns;
        if (goes) return;
        range.name = rest->Name(range.name);
        range.shapes = rest->Name(range.shapes);
        range.dtypes = rest->Name(range.dtypes);
        range.source = rest->Name(range.source);
      });
  SplitRecords(
      &model->nccl_calls, &slice->nccl_calls,
      [&](const NcclCall& call) { return call.start_ns < cut_ns; },
      [&](const NcclCall& call, bool, size_t) { *late += call.start_ns < late_ns; });
  SplitRecords(
      &model->memory, &slice->memory,
      [&](const MemoryRecord& record) { return record.time_ns < cut_ns; },
      [&](const MemoryRecord& record, bool, size_t) { *late += record.time_ns < late_ns; });
  SplitRecords(
      &model->memory_samples, &slice->memory_samples,
      [&](const MemorySample& sample) { return sample.step_time_ns() < cut_ns; },
      [&](const MemorySample& sample, bool, size_t) { *late += sample.step_time_ns() < late_ns; });
  for (const auto& [thread, name] : model->thread_names)
    rest->to->thread_names[thread] = rest->Name(name);
}

}  // namespace

TraceModel TakeSliceBefore(uint64_t cut_ns, TraceModel* model, uint64_t late_ns,
                           uint64_t* late_records) {
  // The slice takes the model's names, kernel launches and thread names whole, so its
  // records keep their ids and only the records that stay are renamed (a cut is chosen
  // late in what is held: they are few); `kept` collects what those use, renumbered, and
  // replaces the model's at the end.
  TraceModel slice, kept;
  slice.identity = model->identity;
  slice.headers = model->headers;
  Rest rest(*model, &kept);
  uint64_t late = 0;
  SplitHostRecords(cut_ns, late_ns, &late, model, &slice, &rest);
  // Per call: its index on its side, as i (before the cut) or ~i (after), and whether it
  // is before `late_ns`, read by the device records once the calls have moved.
  std::vector<int32_t> call_index(model->api_calls.size());
  std::vector<uint8_t> call_late(model->api_calls.size());
  size_t call = 0;
  SplitRecords(
      &model->api_calls, &slice.api_calls, [&](const ApiCall& c) { return c.start_ns < cut_ns; },
      [&](ApiCall& c, bool goes, size_t index) {
        call_late[call] = c.start_ns < late_ns;
        late += call_late[call];
        const int32_t at = static_cast<int32_t>(index);
        call_index[call++] = goes ? at : ~at;
        if (goes) return;
        c.name = rest.Name(c.name);
        c.call_stack = rest.Name(c.call_stack);
        c.launch = rest.Launch(c.launch);
      });
  // The slice's records without a call, by DeviceKind: counted here, its quality's count
  // needs no walk of its own.
  uint64_t unmatched[4] = {0, 0, 0, 0};
  // A device record goes to its launching call's side (DeviceTime), else by its own time.
  auto goes_before = [&](const DeviceActivity& activity) {
    return activity.api_call != kNoIndex ? call_index[activity.api_call] >= 0
                                         : activity.start_ns < cut_ns;
  };
  SplitRecords(&model->device_activities, &slice.device_activities, goes_before,
               [&](DeviceActivity& activity, bool goes, size_t) {
                 late += activity.api_call != kNoIndex ? call_late[activity.api_call]
                                                       : activity.start_ns < late_ns;
                 if (activity.api_call != kNoIndex) {
                   const int32_t at = call_index[activity.api_call];
                   activity.api_call = at >= 0 ? at : ~at;
                 } else if (goes) {
                   ++unmatched[static_cast<int>(activity.kind)];
                 }
                 if (goes) return;
                 activity.name = rest.Name(activity.name);
                 activity.launch = rest.Launch(activity.launch);
               });
  SetUnmatchedDeviceRecords(unmatched, &slice.quality);
  slice.names = std::move(model->names);
  slice.kernel_launches = std::move(model->kernel_launches);
  slice.thread_names = std::move(model->thread_names);
  model->names = std::move(kept.names);
  model->kernel_launches = std::move(kept.kernel_launches);
  model->thread_names = std::move(kept.thread_names);
  slice.event_count = RecordCount(slice);
  model->event_count = RecordCount(*model);
  if (late_records) *late_records = late;
  return slice;
}

std::optional<uint64_t> ChooseCut(const TraceModel& model, bool force,
                                  const StreamLatestStarts& stream_latest, uint64_t answered_to) {
  std::vector<const HostRange*> steps;
  for (const HostRange& range : model.ranges)
    if (range.type == RangeType::kProfileStep) steps.push_back(&range);
  if (steps.size() < 3) return std::nullopt;
  std::sort(steps.begin(), steps.end(),
            [](const HostRange* a, const HostRange* b) { return a->start_ns < b->start_ns; });
  const size_t candidates = steps.size() - 2;  // two more steps read after each
  if (force) return steps[candidates - 1]->end_ns;
  // Per candidate: whether a range other than steps and marks spans its end.
  std::vector<uint64_t> ends(candidates);
  for (size_t j = 0; j < candidates; ++j) ends[j] = steps[j]->end_ns;
  const bool sorted_ends = std::is_sorted(ends.begin(), ends.end());
  std::vector<int> spanned(candidates + 1, 0);  // difference array over candidates
  for (const HostRange& range : model.ranges) {
    if (!sorted_ends || range.type == RangeType::kProfileStep || range.type == RangeType::kMark)
      continue;
    const size_t first = std::upper_bound(ends.begin(), ends.end(), range.start_ns) - ends.begin();
    const size_t last = std::lower_bound(ends.begin(), ends.end(), range.end_ns) - ends.begin();
    if (first < last) ++spanned[first], --spanned[last];
  }
  std::vector<bool> clear(candidates);
  for (size_t j = 0, open = 0; j < candidates; ++j) {
    open += spanned[j];
    clear[j] = open == 0;
  }
  for (size_t j = candidates; j-- > 0;) {
    if (!clear[j] || steps[j]->end_ns > answered_to) continue;
    bool streams_past = true;
    for (const auto& [stream, latest] : stream_latest) {
      if (latest >= steps[j]->start_ns && latest < steps[j]->end_ns) streams_past = false;
    }
    if (streams_past) return steps[j]->end_ns;
  }
  return std::nullopt;
}

WindowSlicer::WindowSlicer(std::string path, trace::FileHeader header, uint64_t force_events,
                           bool device_records, SliceSink sink)
    : path_(std::move(path)),
      header_(std::move(header)),
      force_events_(force_events),
      sink_(std::move(sink)),
      answered_to_(device_records ? 0 : ~uint64_t{0}) {}

void WindowSlicer::Join(TraceModel segment) {
  segment.headers.clear();
  segment.files.clear();
  if (!holding_) {
    held_ = std::move(segment);
    held_.headers = {header_};
    holding_ = true;
  } else {
    AppendModel(std::move(segment), &held_);
  }
  // Device records whose call came in an earlier segment find it now.
  uint64_t answered = 0;
  LinkDeviceActivitiesToApiCalls(&held_, &stream_latest_, &answered);
  if (answered_to_ != ~uint64_t{0}) answered_to_ = std::max(answered_to_, answered);
}

void WindowSlicer::AddSegment(TraceModel segment) {
  segment.cpu_windows.clear();
  segment.quality.clock_lines.clear();
  segment.quality.unknown_dictionary_references = 0;  // the dictionary's counts so far
  segment.quality.dropped_definitions = 0;
  Join(std::move(segment));
  std::optional<uint64_t> cut = ChooseCut(held_, false, stream_latest_, answered_to_);
  if (!cut && held_.event_count > force_events_) cut = ChooseCut(held_, true, stream_latest_);
  if (!cut || *cut <= cut_ns_) return;
  uint64_t late = 0;  // records before the cut already handed on (none before the first)
  const RecordSizes held = SizesOf(held_);
  TraceModel slice = TakeSliceBefore(*cut, &held_, slices_ > 0 ? cut_ns_ : 0, &late);
  // The counts of the records read so far, but for the unmatched device records: the
  // held ones' count includes those after the cut, the slice's is its own.
  auto unmatched = std::move(slice.quality.unmatched_device_records);
  slice.quality = std::move(held_.quality);
  slice.quality.unmatched_device_records = std::move(unmatched);
  held_.quality = DataQuality();
  slice.quality.late_slice_records += late;
  cut_ns_ = *cut;
  // Its device records went with their calls, so linking it again changes nothing unless
  // two held calls shared a correlation id (the later won; the slice may hold only the
  // earlier): then it is linked again, and its duplicates counted anew.
  if (slice.quality.duplicate_correlation_ids > 0) LinkDeviceActivitiesToApiCalls(&slice);
  Emit(std::move(slice));
  MakeRoomToContinue(held, &held_);
}

void WindowSlicer::Finish(TraceModel last_segment) {
  Join(std::move(last_segment));
  TraceModel slice = std::move(held_);
  held_ = TraceModel();
  holding_ = false;
  if (slices_ > 0) slice.quality.late_slice_records += CountBefore(slice, cut_ns_);
  slice.event_count = RecordCount(slice);
  Emit(std::move(slice));  // all that was held, just linked: its counts are its own
}

TraceModel WindowSlicer::TakeHeld() {
  TraceModel held = std::move(held_);
  held_ = TraceModel();
  holding_ = false;
  return held;
}

void WindowSlicer::Emit(TraceModel slice) {
  if (slices_++ == 0) slice.files = {path_};  // the file is named once, as a whole read does
  sink_(std::move(slice));
}

}  // namespace prof::analyzer
