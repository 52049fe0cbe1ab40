// WindowCarry::Union on hand-made windows: the calls counted once, the union clipped to
// the steps, and the work past a window's end joining the next window's union. Expected
// values are worked out by hand from the intervals in each case.
#include "analyzer/summary/window_carry.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

namespace prof::analyzer {
namespace {

AnalysisContext WindowOf(IntervalList steps) {
  AnalysisContext window;
  window.window = std::move(steps);
  window.has_steps = true;
  return window;
}

TEST_CASE("window carry: unsorted events, a window with a gap, zero-length events") {
  WindowCarry carry;
  // Inside the steps: all but the two instants at 40 (the window's end) and 45.
  const ClippedUnion first =
      carry.Union(WindowOf({{10, 20}, {30, 40}}), UnionKind::kApiCalls,
                  {{35, 50}, {5, 12}, {15, 32}, {18, 19}, {45, 45}, {40, 40}});
  CHECK(first.calls == 4);
  CHECK(first.intervals == IntervalList{{10, 12}, {15, 20}, {30, 32}, {35, 40}});
  carry.NextWindow();
  // Carried in: [40, 50) (counted already) and the instant at 45, counted here.
  const ClippedUnion second = carry.Union(WindowOf({{45, 60}}), UnionKind::kApiCalls, {{55, 58}});
  CHECK(second.calls == 2);
  CHECK(second.intervals == IntervalList{{45, 50}, {55, 58}});
}

TEST_CASE("window carry: events in start order, then out of it, after merges") {
  WindowCarry carry;
  // The first three come in order ([5, 12) and [12, 14) touch); [16, 17) starts before
  // [31, 45), and it and [13, 16) join the first union: [5, 17) and [31, 45). The instant
  // at 41 lies past the window's end (40), so five calls.
  const ClippedUnion first =
      carry.Union(WindowOf({{10, 20}, {30, 40}}), UnionKind::kKernels,
                  {{5, 12}, {12, 14}, {31, 45}, {16, 17}, {13, 16}, {41, 41}});
  CHECK(first.calls == 5);
  CHECK(first.intervals == IntervalList{{10, 17}, {31, 40}});
  carry.NextWindow();
  // Carried in: [40, 45) (counted already) and the instant at 41, counted here.
  const ClippedUnion second = carry.Union(WindowOf({{40, 60}}), UnionKind::kKernels, {{50, 55}});
  CHECK(second.calls == 2);
  CHECK(second.intervals == IntervalList{{40, 45}, {50, 55}});
}

TEST_CASE("window carry: events in start order, some running past the window's end") {
  WindowCarry carry;
  // One span, nothing carried in: [30, 50) and [39, 45) run past 40 and are handed on,
  // and the walk goes on after each; [60, 70) starts past the window: four calls.
  const ClippedUnion first = carry.Union(WindowOf({{0, 40}}), UnionKind::kMemsets,
                                         {{5, 10}, {30, 50}, {35, 38}, {39, 45}, {60, 70}});
  CHECK(first.calls == 4);
  CHECK(first.intervals == IntervalList{{5, 10}, {30, 40}});
  carry.NextWindow();
  // Carried in: [40, 50) and [40, 45) (counted already) and [60, 70), counted here.
  const ClippedUnion second = carry.Union(WindowOf({{40, 80}}), UnionKind::kMemsets, {{75, 76}});
  CHECK(second.calls == 2);
  CHECK(second.intervals == IntervalList{{40, 50}, {60, 70}, {75, 76}});
}

TEST_CASE("window carry: carried work starting after the next window's own events") {
  WindowCarry carry;
  // [12, 30) starts past the window's end: not counted there, carried whole.
  const ClippedUnion first = carry.Union(WindowOf({{0, 10}}), UnionKind::kMemcpys, {{12, 30}});
  CHECK(first.calls == 0);
  CHECK(first.intervals.empty());
  carry.NextWindow();
  const ClippedUnion second =
      carry.Union(WindowOf({{10, 40}}), UnionKind::kMemcpys, {{11, 12}, {31, 35}});
  CHECK(second.calls == 3);
  CHECK(second.intervals == IntervalList{{11, 30}, {31, 35}});
}

TEST_CASE("window carry: a device's union takes only that device's carried kernels") {
  WindowCarry carry;
  carry.Union(WindowOf({{0, 10}}), UnionKind::kKernelsByDevice, {{5, 15}}, 1);
  carry.Union(WindowOf({{0, 10}}), UnionKind::kKernelsByDevice, {{2, 3}}, 0);
  carry.NextWindow();
  CHECK(carry.CarriedDevices() == std::vector<uint32_t>{1});
  const AnalysisContext next = WindowOf({{10, 20}});
  const ClippedUnion device0 = carry.Union(next, UnionKind::kKernelsByDevice, {{12, 14}}, 0);
  CHECK(device0.calls == 1);
  CHECK(device0.intervals == IntervalList{{12, 14}});
  const ClippedUnion device1 = carry.Union(next, UnionKind::kKernelsByDevice, {}, 1);
  CHECK(device1.calls == 0);  // counted in the first window
  CHECK(device1.intervals == IntervalList{{10, 15}});
}

// Brute force on small integer times, independent of the union's walk: an event lies inside
// the window when it shares a unit of time with a step, or, zero-length, when its instant
// lies in one.
bool Inside(const IntervalList& window, const Interval& event) {
  for (const Interval& step : window) {
    if (event.start == event.end ? step.start <= event.start && event.start < step.end
                                 : step.start < event.end && event.start < step.end) {
      return true;
    }
  }
  return false;
}

struct Expected {
  uint64_t calls = 0;
  IntervalList intervals;
};

// The union by unit cells: a cell is busy when an event covers it and a step holds it;
// runs of busy cells are the clipped union.
Expected ExpectedUnion(const IntervalList& window, const std::vector<Interval>& events,
                       std::vector<std::pair<Interval, bool>>* carried) {
  Expected expected;
  const uint64_t window_end = window.back().end;
  std::vector<bool> busy(200, false);
  std::vector<std::pair<Interval, bool>> next;
  auto take = [&](const Interval& event, bool counted) {
    const bool inside = Inside(window, event);
    expected.calls += inside && !counted;
    for (uint64_t t = event.start; t < event.end; ++t) busy[t] = true;
    if (event.end > window_end)
      next.push_back({{std::max(event.start, window_end), event.end}, counted || inside});
  };
  for (const auto& [event, counted] : *carried) take(event, counted);
  for (const Interval& event : events) take(event, false);
  for (uint64_t t = 0; t < busy.size(); ++t) {
    const bool held = Inside(window, {t, t + 1});
    if (!busy[t] || !held) continue;
    if (!expected.intervals.empty() && expected.intervals.back().end == t) {
      expected.intervals.back().end = t + 1;
    } else {
      expected.intervals.push_back({t, t + 1});
    }
  }
  *carried = std::move(next);
  return expected;
}

TEST_CASE("window carry: a union taken from another kind's hands on what that one did") {
  WindowCarry carry;
  CHECK(carry.CarriesLike(UnionKind::kComputation, UnionKind::kKernelsByDevice));
  // [30, 50) runs past 40 on device 1; the computation union is taken from this one.
  carry.Union(WindowOf({{0, 40}}), UnionKind::kKernelsByDevice, {{5, 10}, {30, 50}}, 1);
  carry.HandOnLike(UnionKind::kComputation, UnionKind::kKernelsByDevice);
  carry.Union(WindowOf({{0, 40}}), UnionKind::kMemcpys, {{35, 45}});
  carry.NextWindow();
  CHECK(carry.CarriesLike(UnionKind::kComputation, UnionKind::kKernelsByDevice));
  CHECK_FALSE(carry.CarriesLike(UnionKind::kComputation, UnionKind::kMemcpys));
  // The computation's own union joins [40, 50), carried in from the kernels' walk.
  const ClippedUnion computation =
      carry.Union(WindowOf({{40, 80}}), UnionKind::kComputation, {{60, 70}});
  CHECK(computation.intervals == IntervalList{{40, 50}, {60, 70}});
  // [55, 90) runs past 80 in the kernels' union only: the two carry different work now.
  carry.Union(WindowOf({{40, 80}}), UnionKind::kKernelsByDevice, {{55, 90}}, 1);
  carry.NextWindow();
  CHECK_FALSE(carry.CarriesLike(UnionKind::kComputation, UnionKind::kKernelsByDevice));
}

// Three windows of random events (sorted, sorted but for one, or shuffled; windows of one
// span or with a gap), each union checked against the brute force.
TEST_CASE("window carry: random windows agree with a brute-force union") {
  std::mt19937 random(11);
  for (int round = 0; round < 300; ++round) {
    WindowCarry carry;
    std::vector<std::pair<Interval, bool>> carried;
    for (uint64_t w = 0; w < 3; ++w) {
      const uint64_t base = 10 + 40 * w;
      IntervalList window = random() % 2 ? IntervalList{{base, base + 40}}
                                         : IntervalList{{base, base + 15}, {base + 20, base + 40}};
      std::vector<Interval> events(random() % 12);
      for (Interval& event : events) {
        event.start = base - 5 + random() % 50;
        event.end = event.start + random() % 13;
      }
      auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
      const int order = random() % 3;
      if (order < 2) std::sort(events.begin(), events.end(), by_start);
      if (order == 1 && events.size() > 2) std::swap(events[1], events[events.size() - 1]);
      if (order == 2) std::shuffle(events.begin(), events.end(), random);
      const Expected expected = ExpectedUnion(window, events, &carried);
      const ClippedUnion got =
          carry.Union(WindowOf(window), UnionKind::kKernels, IntervalList(events));
      INFO("round " << round << " window " << w);
      CHECK(got.calls == expected.calls);
      CHECK(got.intervals == expected.intervals);
      carry.NextWindow();
    }
  }
}

}  // namespace
}  // namespace prof::analyzer
