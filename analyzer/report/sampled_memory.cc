#include "analyzer/report/sampled_memory.h"

#include <algorithm>

namespace prof::analyzer::report {
namespace {

std::string PlaceOf(int32_t device) {
  return device >= 0 ? "GPU" + std::to_string(device) : std::string("Host");
}

// The step of [first, steps.size()) holding `time`, or -1. Steps are sorted by start and
// do not overlap.
long StepAt(const std::vector<StepFigures>& steps, size_t first, uint64_t time) {
  auto it = std::upper_bound(steps.begin() + first, steps.end(), time,
                             [](uint64_t t, const StepFigures& step) { return t < step.start_ns; });
  if (it == steps.begin() + first) return -1;
  --it;
  if (time >= it->start_ns + it->duration_ns) return -1;
  return it - steps.begin();
}

std::vector<const MemorySample*> ByTime(const std::vector<MemorySample>& samples) {
  std::vector<const MemorySample*> order;
  for (const MemorySample& sample : samples) order.push_back(&sample);
  std::stable_sort(order.begin(), order.end(), [](const MemorySample* a, const MemorySample* b) {
    return a->time_ns < b->time_ns;
  });
  return order;
}

}  // namespace

void AddSampledMemory(const TraceModel& window, const std::vector<StepFigures>& steps,
                      size_t first_step, std::map<std::string, std::vector<SampledStep>>* places) {
  for (const MemorySample* sample : ByTime(window.memory_samples)) {
    // The host's sample carries its step's (exclusive) end: look 1 ns earlier.
    const bool host_stamp = sample->device < 0 && sample->time_ns > 0;
    const long step = StepAt(steps, first_step, host_stamp ? sample->time_ns - 1 : sample->time_ns);
    if (step < 0) continue;
    std::vector<SampledStep>& place = (*places)[PlaceOf(sample->device)];
    place.resize(steps.size());
    // Later samples of the same step overwrite: the step keeps its last (time order).
    place[step] = {true, sample->allocated, sample->reserved, sample->peak, sample->rss};
  }
  for (auto& [name, place] : *places) place.resize(steps.size());
}

}  // namespace prof::analyzer::report
