#include "analyzer/report/step_figures.h"

#include <algorithm>
#include <array>

namespace prof::analyzer::report {

const std::array<const char*, kPhaseCount> kPhaseNames = {"Dataloader", "Forward", "Backward",
                                                          "Optimization", "Others"};

namespace {

// Index into kPhaseNames of a model phase range; -1 for every other range.
int PhaseIndex(RangeType type) {
  switch (type) {
    case RangeType::kDataloader: return 0;
    case RangeType::kForward: return 1;
    case RangeType::kBackward: return 2;
    case RangeType::kOptimization: return 3;
    default: return -1;
  }
}

}  // namespace

uint64_t CoveredLength(const IntervalList& merged, uint64_t start, uint64_t end) {
  // The first interval ending after `start`; intervals are disjoint, so ends are sorted too.
  auto it =
      std::upper_bound(merged.begin(), merged.end(), start,
                       [](uint64_t time, const Interval& interval) { return time < interval.end; });
  uint64_t covered = 0;
  for (; it != merged.end() && it->start < end; ++it) {
    covered += std::min(end, it->end) - std::max(start, it->start);
  }
  return covered;
}

void AddStepFigures(const TraceModel& window, std::vector<StepFigures>* steps,
                    IntervalList* busy_carry) {
  std::array<IntervalList, kPhaseCount - 1> phases;
  std::vector<const HostRange*> step_ranges;
  for (const HostRange& range : window.ranges) {
    if (range.end_ns <= range.start_ns) continue;
    if (range.type == RangeType::kProfileStep) step_ranges.push_back(&range);
    const int phase = PhaseIndex(range.type);
    if (phase >= 0) phases[phase].push_back({range.start_ns, range.end_ns});
  }
  for (IntervalList& list : phases) list = MergeIntervals(std::move(list));
  IntervalList busy;
  for (const DeviceActivity& activity : window.device_activities) {
    if (activity.kind == DeviceKind::kSynchronization || activity.end_ns <= activity.start_ns)
      continue;
    busy.push_back({activity.start_ns, activity.end_ns});
  }
  if (busy_carry != nullptr) busy.insert(busy.end(), busy_carry->begin(), busy_carry->end());
  busy = MergeIntervals(std::move(busy));
  if (busy_carry != nullptr) {
    uint64_t last_end = 0;
    for (const HostRange* range : step_ranges) last_end = std::max(last_end, range->end_ns);
    busy_carry->clear();
    for (const Interval& interval : busy) {
      if (!step_ranges.empty() && interval.end > last_end)
        busy_carry->push_back({std::max(interval.start, last_end), interval.end});
    }
  }
  std::sort(step_ranges.begin(), step_ranges.end(),
            [](const HostRange* a, const HostRange* b) { return a->start_ns < b->start_ns; });
  for (const HostRange* range : step_ranges) {
    StepFigures step;
    step.number = range->step_number;
    step.start_ns = range->start_ns;
    step.duration_ns = range->end_ns - range->start_ns;
    uint64_t in_phases = 0;
    for (size_t phase = 0; phase < phases.size(); ++phase) {
      step.phase_ns[phase] = CoveredLength(phases[phase], range->start_ns, range->end_ns);
      in_phases += step.phase_ns[phase];
    }
    // Phases on different threads may overlap in wall time; Others never goes negative.
    step.phase_ns[kPhaseCount - 1] =
        in_phases < step.duration_ns ? step.duration_ns - in_phases : 0;
    step.gpu_busy_ns = CoveredLength(busy, range->start_ns, range->end_ns);
    steps->push_back(step);
  }
}

}  // namespace prof::analyzer::report
