#include "analyzer/summary/device_unions.h"

#include <utility>

namespace prof::analyzer {

uint64_t DeviceUnions::KernelCalls() const {
  uint64_t calls = 0;
  for (const auto& [device, kernels] : kernels_by_device) calls += kernels.calls;
  return calls;
}

IntervalList DeviceUnions::AllKernels() const {
  if (kernels_by_device.size() == 1) return kernels_by_device.begin()->second.intervals;
  IntervalList all;
  for (const auto& [device, kernels] : kernels_by_device)
    all = UniteIntervals(all, kernels.intervals);
  return all;
}

uint64_t DeviceUnions::AllKernelsLength() const {
  // One device (the usual process) needs no copy of its union.
  if (kernels_by_device.size() == 1) return TotalLength(kernels_by_device.begin()->second.intervals);
  return TotalLength(AllKernels());
}

DeviceUnions ComputeDeviceUnions(const AnalysisContext& window, WindowCarry* carry,
                                 bool with_copies) {
  std::map<uint32_t, IntervalList> kernels;  // by device
  for (uint32_t device : carry->CarriedDevices()) kernels[device];
  // Each list reserved at its exact size (counted by the context's walk): millions of
  // records, written once rather than copied as the list doubles.
  for (const auto& [device, count] : window.counts.kernels_by_device) kernels[device].reserve(count);
  IntervalList memcpys, memsets;
  if (with_copies) {
    memcpys.reserve(window.counts.Device(DeviceKind::kMemcpy));
    memsets.reserve(window.counts.Device(DeviceKind::kMemset));
  }
  // Consecutive kernels nearly always share a device: the map is looked up when it changes.
  uint32_t device = 0;
  IntervalList* list = nullptr;
  for (const DeviceActivity& activity : window.model->device_activities) {
    if (activity.kind == DeviceKind::kKernel) {
      if (list == nullptr || activity.device != device) {
        device = activity.device;
        list = &kernels[device];
      }
      list->push_back({activity.start_ns, activity.end_ns});
    } else if (with_copies && activity.kind == DeviceKind::kMemcpy) {
      memcpys.push_back({activity.start_ns, activity.end_ns});
    } else if (with_copies && activity.kind == DeviceKind::kMemset) {
      memsets.push_back({activity.start_ns, activity.end_ns});
    }
  }
  DeviceUnions unions;
  unions.any_kernel = window.counts.Device(DeviceKind::kKernel) > 0;
  unions.any_memcpy = !memcpys.empty();
  unions.any_memset = !memsets.empty();
  for (auto& [on_device, own] : kernels) {
    unions.kernels_by_device[on_device] =
        carry->Union(window, UnionKind::kKernelsByDevice, std::move(own), on_device);
  }
  if (with_copies) {
    unions.memcpys = carry->Union(window, UnionKind::kMemcpys, std::move(memcpys));
    unions.memsets = carry->Union(window, UnionKind::kMemsets, std::move(memsets));
  }
  return unions;
}

}  // namespace prof::analyzer
