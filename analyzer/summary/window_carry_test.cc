// WindowCarry::Union on hand-made windows: the calls counted once, the union clipped to
// the steps, and the work past a window's end joining the next window's union. Expected
// values are worked out by hand from the intervals in each case.
#include "analyzer/summary/window_carry.h"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace prof::analyzer
