#include "analyzer/render/timeline_walk.h"

#include <algorithm>
#include <vector>

#include "analyzer/render/chrome_exporter.h"

namespace prof::analyzer {

void TimelineWalk::AddWindow(const TraceModel& window, size_t process_index) {
  TimelineSink& sink = *sink_;
  sink.OnBeginWindow(window, process_index);
  const uint64_t start = EarliestTime(window);
  const uint64_t end = LatestTime(window);
  if (start <= end && !window.headers.empty())
    sink.OnRecordingWindow(start, end, WindowLabel(window.headers.front()));
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
