// The flight recorder's GPU side (flight_events.h) against a fake runtime whose events
// complete when the test says so: the state a call's ring slot goes through, the hang
// check's view of a call returned but not completed, pairs handed back and reused, and
// every call not followed counted (empty pool, failed record, no runtime).
#include "agent/record/flight_events.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/record/flight_ring.h"

namespace prof {
namespace {

// The fake runtime: an event is an id; recording makes it pending until Complete().
struct FakeRuntime {
  uintptr_t next_id = 1;
  std::map<uintptr_t, bool> done;        // by event id
  std::map<uintptr_t, void*> stream_of;  // where it was last recorded
  int created = 0;
  bool fail_records = false;
  void* bad_stream = reinterpret_cast<void*>(0xbad);
};
FakeRuntime* g_fake = nullptr;

int FakeCreate(void** event, unsigned flags) {
  if (flags != kFlightEventFlags) return 1;  // cudaErrorInvalidValue: timing must be off
  ++g_fake->created;
  *event = reinterpret_cast<void*>(g_fake->next_id++);
  return 0;
}
int FakeRecord(void* event, void* stream) {
  if (g_fake->fail_records || stream == g_fake->bad_stream) return 400;  // invalid handle
  g_fake->done[reinterpret_cast<uintptr_t>(event)] = false;
  g_fake->stream_of[reinterpret_cast<uintptr_t>(event)] = stream;
  return 0;
}
int FakeQuery(void* event) {
  return g_fake->done[reinterpret_cast<uintptr_t>(event)] ? 0 : kFlightEventNotReady;
}

// Completes every event recorded on `stream` so far (the device caught up with it).
void Complete(void* stream) {
  for (auto& [id, done] : g_fake->done) {
    if (g_fake->stream_of[id] == stream) done = true;
  }
}

struct Fixture {
  FakeRuntime runtime;
  Fixture() {
    g_fake = &runtime;
    ConfigureFlight(64);
    ResetFlightAfterFork();
    internal::ResetFlightEventsForTest();
    SetFlightEventFunctions({FakeCreate, FakeRecord, FakeQuery});
  }
};

FlightCall CallOf(uint64_t ticket) {
  for (const FlightCall& call : TakeFlightSnapshot().calls) {
    if (call.ticket == ticket) return call;
  }
  FAIL("ticket " << ticket << " not in the ring");
  return {};
}

// One collective as the hook runs it: enter, first event, the call, second event, return.
uint64_t Collective(void* stream, uint64_t enter_ns) {
  FlightCallArguments arguments;
  arguments.sequence = 1;
  const uint64_t ticket = FlightEnter(arguments, enter_ns);
  const uint32_t pair = FlightEventsBegin(ticket, stream);
  FlightEventsEnd(pair, ticket, stream);
  FlightReturn(ticket, enter_ns + 5, 0);
  return ticket;
}

void* const kStream = reinterpret_cast<void*>(0x5000);

TEST_CASE("a collective goes enqueued, started, completed as its events complete") {
  Fixture fixture;
  const uint64_t ticket = Collective(kStream, 10);
  CHECK(CallOf(ticket).returned);
  CHECK(CallOf(ticket).device == FlightDeviceState::kEnqueued);
  CHECK_FALSE(FlightCallFinished(CallOf(ticket)));
  CHECK(PollFlightEvents() == 1);
  CHECK(CallOf(ticket).device == FlightDeviceState::kEnqueued);  // nothing completed yet

  // The work before the call is done (the first event), the call's kernel is not.
  g_fake->done[1] = true;
  CHECK(PollFlightEvents() == 1);
  CHECK(CallOf(ticket).device == FlightDeviceState::kStarted);

  Complete(kStream);
  CHECK(PollFlightEvents() == 0);
  CHECK(CallOf(ticket).device == FlightDeviceState::kCompleted);
  CHECK(FlightCallFinished(CallOf(ticket)));
  CHECK(FlightEventsUntracked() == 0);
}

TEST_CASE("the hang check waits on a call returned but not completed on the GPU") {
  Fixture fixture;
  void* stuck = reinterpret_cast<void*>(0x6000);
  const uint64_t done = Collective(kStream, 10);
  const uint64_t hung = Collective(stuck, 20);
  Complete(kStream);
  PollFlightEvents();
  FlightCall oldest;
  REQUIRE(OldestUnfinishedBefore(100, &oldest));
  CHECK(oldest.ticket == hung);
  CHECK(oldest.returned);
  CHECK(oldest.device == FlightDeviceState::kEnqueued);
  CHECK_FALSE(OldestUnfinishedBefore(20, &oldest));  // entered at 20: not before
  CHECK(CallOf(done).device == FlightDeviceState::kCompleted);
  Complete(stuck);
  PollFlightEvents();
  CHECK_FALSE(OldestUnfinishedBefore(100, &oldest));
}

TEST_CASE("pairs come back once completed and are reused, their events created once") {
  Fixture fixture;
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < kFlightEventPairs; ++i) Collective(kStream, 10);
    Complete(kStream);
    CHECK(PollFlightEvents() == 0);
  }
  CHECK(FlightEventsUntracked() == 0);
  CHECK(g_fake->created == static_cast<int>(2 * kFlightEventPairs));
}

TEST_CASE("calls not followed are counted and keep the host's view") {
  Fixture fixture;
  SECTION("the pool is empty: every pair pending") {
    for (size_t i = 0; i < kFlightEventPairs; ++i) Collective(kStream, 10);
    const uint64_t extra = Collective(kStream, 10);
    CHECK(FlightEventsUntracked() == 1);
    CHECK(CallOf(extra).device == FlightDeviceState::kUntracked);
    CHECK(FlightCallFinished(CallOf(extra)));
  }
  SECTION("a stream of another device: the record fails") {
    const uint64_t ticket = Collective(g_fake->bad_stream, 10);
    CHECK(FlightEventsUntracked() == 1);
    CHECK(CallOf(ticket).device == FlightDeviceState::kUntracked);
    CHECK(PollFlightEvents() == 0);  // the pair went back at once
  }
  SECTION("no event functions in the runtime") {
    internal::ResetFlightEventsForTest();
    const uint64_t ticket = Collective(kStream, 10);
    CHECK(FlightEventsUntracked() == 1);
    CHECK(CallOf(ticket).device == FlightDeviceState::kUntracked);
    CHECK(PollFlightEvents() == 0);
  }
}

TEST_CASE("a late state never moves a call back, nor onto the call that reused its slot") {
  Fixture fixture;
  const uint64_t ticket = Collective(kStream, 10);
  FlightSetDeviceState(ticket, FlightDeviceState::kCompleted);
  FlightSetDeviceState(ticket, FlightDeviceState::kStarted);
  CHECK(CallOf(ticket).device == FlightDeviceState::kCompleted);
  // 64 more calls lap the ring: the slot is the new call's; the old ticket cannot touch it.
  uint64_t last = 0;
  for (int i = 0; i < 64; ++i) {
    FlightCallArguments arguments;
    last = FlightEnter(arguments, 30);
  }
  REQUIRE((last - 1) % 64 == (ticket - 1) % 64);
  FlightSetDeviceState(ticket, FlightDeviceState::kStarted);
  CHECK(CallOf(last).device == FlightDeviceState::kUntracked);
}

// A device that is always done: every event completes at once (thread-safe, unlike the
// fake above), for the concurrency case.
std::atomic<uintptr_t> g_instant_ids{1};
int InstantCreate(void** event, unsigned) {
  *event = reinterpret_cast<void*>(g_instant_ids.fetch_add(1));
  return 0;
}
int InstantRecord(void*, void*) { return 0; }
int InstantQuery(void*) { return 0; }

TEST_CASE("program threads and the writer share the pool without losing a pair") {
  ConfigureFlight(64);
  ResetFlightAfterFork();
  internal::ResetFlightEventsForTest();
  SetFlightEventFunctions({InstantCreate, InstantRecord, InstantQuery});
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    while (!stop.load()) PollFlightEvents();
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 5000; ++i) Collective(reinterpret_cast<void*>(0x100 + t), 10);
    });
  }
  for (std::thread& thread : threads) thread.join();
  stop.store(true);
  writer.join();
  CHECK(PollFlightEvents() == 0);
  // Every pair is free again: a full pool's worth of calls in a row are all followed.
  const uint64_t untracked = FlightEventsUntracked();
  for (size_t i = 0; i < kFlightEventPairs; ++i) Collective(kStream, 10);
  CHECK(FlightEventsUntracked() == untracked);
  CHECK(PollFlightEvents() == 0);
  for (const FlightCall& call : TakeFlightSnapshot().calls) {
    CHECK(call.device == FlightDeviceState::kCompleted);
  }
}

}  // namespace
}  // namespace prof
