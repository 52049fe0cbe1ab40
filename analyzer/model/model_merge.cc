#include "analyzer/model/model_merge.h"

#include <vector>

namespace prof::analyzer {
namespace {

// Room for `more` records at once: growing one push_back at a time copied a held model of
// millions of records to fresh memory again and again (a slicer joins segments of 2M
// events). Half again as much as needed, so joining similar segments seldom moves it.
template <typename T>
void MakeRoom(std::vector<T>* records, size_t more) {
  const size_t needed = records->size() + more;
  if (needed > records->capacity()) records->reserve(needed + needed / 2);
}

}  // namespace

void AppendModel(TraceModel&& from, TraceModel* into) {
  std::vector<NameId> remap(from.names.size());
  for (NameId id = 0; id < from.names.size(); ++id)
    remap[id] = into->names.Intern(from.names.Get(id));

  MakeRoom(&into->ranges, from.ranges.size());
  MakeRoom(&into->api_calls, from.api_calls.size());
  MakeRoom(&into->device_activities, from.device_activities.size());
  MakeRoom(&into->memory, from.memory.size());
  for (HostRange range : from.ranges) {
    range.name = remap[range.name];
    range.shapes = remap[range.shapes];
    range.dtypes = remap[range.dtypes];
    range.source = remap[range.source];
    into->ranges.push_back(range);
  }
  const int32_t call_offset = static_cast<int32_t>(into->api_calls.size());
  const int32_t launch_offset = static_cast<int32_t>(into->kernel_launches.size());
  for (ApiCall call : from.api_calls) {
    call.name = remap[call.name];
    call.call_stack = remap[call.call_stack];
    if (call.launch != kNoIndex) call.launch += launch_offset;
    into->api_calls.push_back(call);
  }
  for (KernelLaunch launch : from.kernel_launches) {
    launch.name = remap[launch.name];
    into->kernel_launches.push_back(launch);
  }
  for (DeviceActivity activity : from.device_activities) {
    activity.name = remap[activity.name];
    if (activity.launch != kNoIndex) activity.launch += launch_offset;
    if (activity.api_call != kNoIndex) activity.api_call += call_offset;
    into->device_activities.push_back(activity);
  }
  into->cpu_windows.insert(into->cpu_windows.end(), from.cpu_windows.begin(),
                           from.cpu_windows.end());
  into->nccl_calls.insert(into->nccl_calls.end(), from.nccl_calls.begin(), from.nccl_calls.end());
  for (MemoryRecord& record : from.memory) into->memory.push_back(std::move(record));
  into->memory_samples.insert(into->memory_samples.end(), from.memory_samples.begin(),
                              from.memory_samples.end());
  for (const auto& [thread, name] : from.thread_names) into->thread_names[thread] = remap[name];
  into->files.insert(into->files.end(), from.files.begin(), from.files.end());
  into->headers.insert(into->headers.end(), from.headers.begin(), from.headers.end());
  into->quality.Add(from.quality);
  into->event_count += from.event_count;
}

}  // namespace prof::analyzer
