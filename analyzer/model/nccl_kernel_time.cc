#include "analyzer/model/nccl_kernel_time.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace prof::analyzer {
namespace {

// Calls `use(call index, kernel)` for every NCCL kernel linked to a call.
void ForEachLinkedKernel(const TraceModel& model,
                         const std::function<void(size_t, const DeviceActivity&)>& use) {
  // No call to link to: skip the walk over every device record (most windows of a
  // single-process run; the walk was 3% of their analysis, twice).
  if (model.nccl_calls.empty()) return;
  std::vector<uint32_t> order(model.nccl_calls.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](uint32_t i) {
    return std::make_pair(model.nccl_calls[i].thread_id, model.nccl_calls[i].start_ns);
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  for (const DeviceActivity& activity : model.device_activities) {
    if (!activity.nccl || activity.api_call == kNoIndex) continue;
    const ApiCall& launch = model.api_calls[activity.api_call];
    auto it = std::upper_bound(
        order.begin(), order.end(), std::make_pair(launch.thread_id, launch.start_ns),
        [&](const std::pair<uint64_t, uint64_t>& value, uint32_t i) { return value < key(i); });
    if (it == order.begin()) continue;
    const NcclCall& call = model.nccl_calls[*(it - 1)];
    if (call.thread_id != launch.thread_id || launch.start_ns > call.end_ns) continue;
    use(*(it - 1), activity);
  }
}

}  // namespace

std::vector<uint64_t> NcclKernelTimePerCall(const TraceModel& model) {
  std::vector<uint64_t> kernel_ns(model.nccl_calls.size(), 0);
  ForEachLinkedKernel(model, [&](size_t call, const DeviceActivity& kernel) {
    kernel_ns[call] += kernel.end_ns - kernel.start_ns;
  });
  return kernel_ns;
}

std::vector<NcclKernelSpan> NcclKernelSpanPerCall(const TraceModel& model) {
  std::vector<NcclKernelSpan> spans(model.nccl_calls.size());
  ForEachLinkedKernel(model, [&](size_t call, const DeviceActivity& kernel) {
    NcclKernelSpan& span = spans[call];
    span.start_ns = span.linked ? std::min(span.start_ns, kernel.start_ns) : kernel.start_ns;
    span.end_ns = span.linked ? std::max(span.end_ns, kernel.end_ns) : kernel.end_ns;
    span.linked = true;
  });
  return spans;
}

}  // namespace prof::analyzer
