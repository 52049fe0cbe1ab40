// The flight ring (flight_ring.h): wrap-around and its count, values read back, several
// writer threads at once, and a slot left "being written". The ring is process-wide and
// configured once, so every case starts from ResetFlightAfterFork (an empty ring).
#include "agent/record/flight_ring.h"

#include <cstdint>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

constexpr size_t kEntries = 64;

void EmptyRing() {
  ConfigureFlight(kEntries);  // once per process; later calls do nothing
  REQUIRE(FlightOn());
  ResetFlightAfterFork();
}

// Arguments whose every field follows from `tag`, so a copy mixing two calls shows.
FlightCallArguments ArgumentsOf(uint64_t tag) {
  FlightCallArguments a;
  a.comm = reinterpret_cast<const void*>(0x1000 + tag * 16);
  a.sequence = static_cast<int64_t>(tag);
  a.bytes = tag * 7;
  a.count = tag * 3;
  a.stream = ~tag;
  a.root_or_peer = static_cast<int32_t>(tag % 5) - 1;  // -1 (none) included
  a.reduction = static_cast<int16_t>(tag % 4) - 1;
  a.operation = static_cast<uint16_t>(tag % 13);
  a.data_type = static_cast<uint8_t>(tag % 9);
  return a;
}

// The tag the call was entered with, or -1 when its fields disagree with one another.
int64_t TagOf(const FlightCall& call) {
  const uint64_t tag = static_cast<uint64_t>(call.arguments.sequence);
  const FlightCallArguments expected = ArgumentsOf(tag);
  const FlightCallArguments& a = call.arguments;
  const bool same = a.comm == expected.comm && a.bytes == expected.bytes &&
                    a.count == expected.count && a.stream == expected.stream &&
                    a.root_or_peer == expected.root_or_peer && a.reduction == expected.reduction &&
                    a.operation == expected.operation && a.data_type == expected.data_type &&
                    call.enter_ns == tag * 11;
  return same ? static_cast<int64_t>(tag) : -1;
}

uint64_t Enter(uint64_t tag) { return FlightEnter(ArgumentsOf(tag), tag * 11); }

TEST_CASE("wrap-around overwrites the oldest calls and counts exactly those") {
  EmptyRing();
  for (uint64_t tag = 1; tag <= kEntries + 10; ++tag) CHECK(Enter(tag) == tag);
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  CHECK(snapshot.capacity == kEntries);
  CHECK(snapshot.calls_total == kEntries + 10);
  CHECK(snapshot.overwritten == 10);
  CHECK(snapshot.torn == 0);
  REQUIRE(snapshot.calls.size() == kEntries);
  for (size_t i = 0; i < snapshot.calls.size(); ++i) {
    CHECK(snapshot.calls[i].ticket == 11 + i);  // oldest first, the first 10 gone
    CHECK(TagOf(snapshot.calls[i]) == static_cast<int64_t>(11 + i));
  }
}

TEST_CASE("a ring not yet full overwrites nothing") {
  EmptyRing();
  for (uint64_t tag = 1; tag <= 5; ++tag) Enter(tag);
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  CHECK(snapshot.calls_total == 5);
  CHECK(snapshot.overwritten == 0);
  CHECK(snapshot.calls.size() == 5);
}

TEST_CASE("calls read back with the values written, returned or not") {
  EmptyRing();
  const uint64_t returned = Enter(1);
  Enter(2);  // still running
  const uint64_t failed = Enter(3);
  FlightReturn(returned, 100, 0);
  FlightReturn(failed, 300, 6);  // ncclRemoteError
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  REQUIRE(snapshot.calls.size() == 3);
  const FlightCall& first = snapshot.calls[0];
  CHECK(TagOf(first) == 1);
  CHECK(first.arguments.root_or_peer == 0);
  CHECK(first.arguments.reduction == 0);
  CHECK(first.returned);
  CHECK(first.return_ns == 100);
  CHECK(first.result == 0);
  CHECK(first.thread_id != 0);
  CHECK(TagOf(snapshot.calls[1]) == 2);
  CHECK_FALSE(snapshot.calls[1].returned);
  CHECK(snapshot.calls[1].return_ns == 0);
  CHECK(snapshot.calls[2].returned);
  CHECK(snapshot.calls[2].result == 6);
  CHECK(snapshot.calls[2].return_ns == 300);
  // -1 (no peer, no reduction) survives the packing.
  EmptyRing();
  Enter(kEntries);  // tag 64: root_or_peer 64 % 5 - 1 = 3; reduction 64 % 4 - 1 = -1
  Enter(5);         // root_or_peer -1
  const FlightSnapshot negatives = TakeFlightSnapshot();
  REQUIRE(negatives.calls.size() == 2);
  CHECK(negatives.calls[0].arguments.reduction == -1);
  CHECK(negatives.calls[1].arguments.root_or_peer == -1);
}

TEST_CASE("a late return of a lapped call does not mark the slot's new call returned") {
  EmptyRing();
  const uint64_t old_call = Enter(1);
  for (uint64_t tag = 2; tag <= kEntries + 1; ++tag) Enter(tag);  // laps slot 0
  FlightReturn(old_call, 50, 0);
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  REQUIRE(snapshot.calls.size() == kEntries);
  CHECK(snapshot.calls.back().ticket == kEntries + 1);
  CHECK_FALSE(snapshot.calls.back().returned);
}

// Each thread enters `per_thread` calls tagged thread * 1e6 + i.
std::vector<std::thread> StartWriters(int threads, uint64_t per_thread) {
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; ++t) {
    writers.emplace_back([t, per_thread] {
      for (uint64_t i = 0; i < per_thread; ++i) {
        FlightReturn(Enter(static_cast<uint64_t>(t + 1) * 1000000 + i), 1, 0);
      }
    });
  }
  return writers;
}

TEST_CASE("concurrent writers within the ring's size lose nothing") {
  EmptyRing();
  constexpr int kThreads = 4;
  for (std::thread& writer : StartWriters(kThreads, kEntries / kThreads)) writer.join();
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  CHECK(snapshot.calls_total == kEntries);
  CHECK(snapshot.overwritten == 0);
  CHECK(snapshot.torn == 0);
  std::set<int64_t> tags;
  for (const FlightCall& call : snapshot.calls) {
    CHECK(call.returned);
    tags.insert(TagOf(call));
  }
  CHECK(tags.size() == kEntries);  // every call once, none mixed (-1)
  CHECK(tags.count(-1) == 0);
}

// The calls a snapshot shows: tickets increasing, each call whole, and each thread's calls
// in the order it entered them.
void CheckConsistent(const FlightSnapshot& snapshot) {
  std::vector<int64_t> last_of_thread(16, -1);
  uint64_t last_ticket = 0;
  for (const FlightCall& call : snapshot.calls) {
    CHECK(call.ticket > last_ticket);
    last_ticket = call.ticket;
    const int64_t tag = TagOf(call);
    REQUIRE(tag >= 0);
    const size_t thread = static_cast<size_t>(tag / 1000000);
    REQUIRE(thread < last_of_thread.size());
    CHECK(tag > last_of_thread[thread]);
    last_of_thread[thread] = tag;
  }
}

TEST_CASE("concurrent writers past the ring's size lose only what it forces, counted") {
  EmptyRing();
  constexpr int kThreads = 4;
  constexpr uint64_t kPerThread = 20000;
  std::vector<std::thread> writers = StartWriters(kThreads, kPerThread);
  for (int i = 0; i < 50; ++i) CheckConsistent(TakeFlightSnapshot());  // while they write
  for (std::thread& writer : writers) writer.join();
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  CHECK(snapshot.calls_total == kThreads * kPerThread);
  CHECK(snapshot.overwritten == kThreads * kPerThread - kEntries);
  // A call whose slot was still being filled by a lapped writer (preempted while kEntries
  // calls went by) is not kept and is counted torn; every other slot holds its call.
  CHECK(snapshot.calls.size() + snapshot.torn == kEntries);
  CheckConsistent(snapshot);
}

TEST_CASE("a slot being written is skipped and counted as torn") {
  EmptyRing();
  Enter(1);
  Enter(2);
  const uint64_t stuck = internal::FlightClaimForTest();
  CHECK(stuck == 3);
  Enter(4);
  const FlightSnapshot snapshot = TakeFlightSnapshot();
  CHECK(snapshot.calls_total == 4);
  CHECK(snapshot.torn == 1);
  REQUIRE(snapshot.calls.size() == 3);
  CHECK(snapshot.calls[0].ticket == 1);
  CHECK(snapshot.calls[1].ticket == 2);
  CHECK(snapshot.calls[2].ticket == 4);
  // The hang check neither reports it nor stops at it.
  FlightCall oldest;
  REQUIRE(OldestUnfinishedBefore(~uint64_t{0}, &oldest));
  CHECK(oldest.ticket == 1);
  // A lap later the stuck slot still refuses the call that maps to it: counted, not mixed.
  for (uint64_t tag = 5; tag <= kEntries + 4; ++tag) Enter(tag);
  const FlightSnapshot lapped = TakeFlightSnapshot();
  CHECK(lapped.calls_total == kEntries + 4);
  CHECK(lapped.overwritten == 4);
  CHECK(lapped.torn == 1);
  CHECK(lapped.calls.size() == kEntries - 1);
  CheckConsistent(lapped);
}

TEST_CASE("the hang check finds the oldest call not returned, entered before the limit") {
  EmptyRing();
  FlightReturn(Enter(1), 20, 0);
  Enter(2);  // entered at 22
  Enter(3);  // entered at 33
  FlightCall oldest;
  REQUIRE(OldestUnfinishedBefore(30, &oldest));
  CHECK(oldest.ticket == 2);
  CHECK_FALSE(OldestUnfinishedBefore(22, &oldest));
}

TEST_CASE("step boundaries are read once each, oldest first; lapped ones skipped") {
  EmptyRing();
  std::vector<FlightStepBoundary> steps;
  CHECK(FlightStepsAfter(0, &steps) == 0);
  CHECK(steps.empty());
  for (int64_t n = 0; n < 3; ++n) FlightStep(n, 100 * n, 100 * n + 50);
  uint64_t seen = FlightStepsAfter(0, &steps);
  CHECK(seen == 3);
  REQUIRE(steps.size() == 3);
  CHECK(steps[2].number == 2);
  CHECK(steps[2].start_ns == 200);
  CHECK(steps[2].end_ns == 250);
  steps.clear();
  CHECK(FlightStepsAfter(seen, &steps) == 3);  // nothing new
  CHECK(steps.empty());
  // 200 more: the ring keeps the last kFlightSteps (128), steps 75..202.
  for (int64_t n = 3; n < 203; ++n) FlightStep(n, 100 * n, 100 * n + 50);
  seen = FlightStepsAfter(seen, &steps);
  CHECK(seen == 203);
  REQUIRE(steps.size() == kFlightSteps);
  CHECK(steps.front().number == 203 - 128);
  CHECK(steps.back().number == 202);
}

}  // namespace
}  // namespace prof
