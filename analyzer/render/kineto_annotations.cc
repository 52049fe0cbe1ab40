#include "analyzer/render/kineto_annotations.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace prof::analyzer {

bool IsKinetoAnnotation(RangeType type) {
  return type == RangeType::kProfileStep || type == RangeType::kUserDefined;
}

bool TakesExternalId(const HostRange& range) {
  return range.type == RangeType::kOperator || IsKinetoAnnotation(range.type);
}

bool TakesExternalId(const NcclCall& call) {
  return call.operation != schema::NCCL_OPERATION_GROUP_START &&
         call.operation != schema::NCCL_OPERATION_GROUP_END;
}

uint64_t KinetoIdRanges(const TraceModel& model) {
  uint64_t count = 0;
  for (const HostRange& range : model.ranges) count += TakesExternalId(range);
  return count;
}

// One sweep over the counted ranges and the calls in time order, a stack per thread.
std::vector<int32_t> EnclosingRanges(const TraceModel& model, bool (*counts)(RangeType)) {
  struct Item {
    uint64_t thread, start, end;
    bool is_range;
    size_t index;
  };
  std::vector<Item> items;
  for (size_t i = 0; i < model.ranges.size(); ++i) {
    const HostRange& r = model.ranges[i];
    if (counts(r.type)) items.push_back({r.thread_id, r.start_ns, r.end_ns, true, i});
  }
  for (size_t i = 0; i < model.api_calls.size(); ++i) {
    const ApiCall& c = model.api_calls[i];
    items.push_back({c.thread_id, c.start_ns, c.end_ns, false, i});
  }
  // By thread, then start; a range before a call starting with it; outer before inner.
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.thread != b.thread) return a.thread < b.thread;
    if (a.start != b.start) return a.start < b.start;
    if (a.is_range != b.is_range) return a.is_range;
    return a.end > b.end;
  });
  std::vector<int32_t> result(model.api_calls.size(), kNoIndex);
  std::vector<const Item*> open;
  for (const Item& item : items) {
    while (!open.empty() && (open.back()->thread != item.thread || open.back()->end <= item.start))
      open.pop_back();
    if (item.is_range) {
      open.push_back(&item);
    } else if (!open.empty()) {
      result[item.index] = static_cast<int32_t>(open.back()->index);
    }
  }
  return result;
}

std::vector<GpuAnnotation> GpuAnnotations(const TraceModel& model,
                                          const std::vector<int32_t>& call_annotations) {
  std::map<std::tuple<int32_t, uint32_t, uint32_t>, GpuAnnotation> spans;
  for (const DeviceActivity& activity : model.device_activities) {
    // Kineto spans kernels, copies and memsets; its synchronization records are not
    // among them (CuptiActivityProfiler::handleGpuActivity is not their path).
    if (activity.api_call == kNoIndex || activity.kind == DeviceKind::kSynchronization) continue;
    const int32_t range = call_annotations[activity.api_call];
    if (range == kNoIndex) continue;
    auto [it, added] = spans.try_emplace({range, activity.device, activity.stream});
    GpuAnnotation& span = it->second;
    if (added) {
      span = {range, activity.device, activity.stream, activity.start_ns, activity.end_ns};
      continue;
    }
    span.start_ns = std::min(span.start_ns, activity.start_ns);
    span.end_ns = std::max(span.end_ns, activity.end_ns);
  }
  std::vector<GpuAnnotation> result;
  result.reserve(spans.size());
  for (const auto& [key, span] : spans) result.push_back(span);
  std::stable_sort(result.begin(), result.end(), [](const GpuAnnotation& a, const GpuAnnotation& b) {
    return a.start_ns < b.start_ns;
  });
  return result;
}

}  // namespace prof::analyzer
