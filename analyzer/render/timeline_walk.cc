#include "analyzer/render/timeline_walk.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace prof::analyzer {

std::string WindowLabel(const trace::FileHeader& header) {
  std::string label = absl::StrCat("window ", header.window_index());
  if (header.window_end_step() > header.window_first_step()) {
    absl::StrAppend(&label, " (steps ", header.window_first_step(), "-",
                    header.window_end_step() - 1, ")");
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

void TimelineWalk::AddWindow(const TraceModel& window, size_t process_index,
                             const WindowPart* part) {
  TimelineSink& sink = *sink_;
  if (part != nullptr && part->continues) {
    sink.OnContinueWindow(window, process_index);
  } else {
    sink.OnBeginWindow(window, process_index);
    const uint64_t start = part != nullptr ? part->start_ns : EarliestTime(window);
    const uint64_t end = part != nullptr ? part->end_ns : LatestTime(window);
    if (start <= end && !window.headers.empty())
      sink.OnRecordingWindow(start, end, WindowLabel(window.headers.front()));
  }
  for (const HostRange& range : window.ranges) sink.OnHostRange(range);
  for (const NcclCall& call : window.nccl_calls) sink.OnNcclCall(call);
  std::vector<bool> launched(window.api_calls.size(), false);
  for (const DeviceActivity& activity : window.device_activities) {
    if (activity.api_call != kNoIndex) launched[activity.api_call] = true;
  }
  for (size_t i = 0; i < window.api_calls.size(); ++i)
    sink.OnApiCall(window.api_calls[i], launched[i]);
  for (const DeviceActivity& activity : window.device_activities) sink.OnDeviceActivity(activity);
  sink.OnEndSlices();

  LiveMemory& live = memory_[process_index];
  for (const MemoryRecord* record : MemoryRecordsByTime(window.memory)) {
    const MemoryChange change = live.Apply(*record);
    if (!change.unmatched_free) sink.OnMemoryChange(*record, change, live);
  }
  // Counter tracks need their values in time order; stable, so equal times keep model order.
  std::vector<const MemorySample*> samples;
  for (const MemorySample& sample : window.memory_samples) samples.push_back(&sample);
  std::stable_sort(
      samples.begin(), samples.end(),
      [](const MemorySample* a, const MemorySample* b) { return a->time_ns < b->time_ns; });
  for (const MemorySample* sample : samples) {
    for (const SampleCounter& counter : MemorySampleCounters(*sample))
      sink.OnSampleCounter(*sample, counter);
  }
  sink.OnEndWindow();
}

}  // namespace prof::analyzer
