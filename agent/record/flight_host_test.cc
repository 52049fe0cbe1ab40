// The flight recorder's host rings (flight_host.h): the lap and its count, calls still
// running, range pairing, an entry left "being written" counted torn, a reader racing the
// owner never showing a mixed entry, rings handed on at thread exit and after fork, and
// threads beyond the 64 full rings keeping their last calls on small rings.
// The rings are process-wide and configured once, so every case starts from
// ResetFlightHostAfterFork (every ring empty and free).
#include "agent/record/flight_host.h"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

constexpr size_t kEntries = 32;  // a full ring's; a small ring holds kFlightHostSmallEntries

void EmptyRings() {
  ConfigureFlightHost(20);  // rounded up to 32; once per process
  ResetFlightHostAfterFork();
}

// A call whose every field follows from `tag`, so a copy mixing two calls shows.
uint64_t Call(uint64_t tag) {
  return FlightHostCallEnter(static_cast<uint16_t>(tag % 1000), tag * 3,
                             reinterpret_cast<const void*>(tag * 16), tag * 10);
}

bool Consistent(const FlightHostEntry& entry) {
  const uint64_t tag = entry.start_ns / 10;
  return entry.kind == FlightHostKind::kApiCall && entry.api == tag % 1000 &&
         entry.stream_plus_one == tag * 3 &&
         entry.function == reinterpret_cast<const void*>(tag * 16) &&
         (entry.end_ns == 0 || entry.end_ns == tag * 10 + 5);
}

TEST_CASE("a lap overwrites the oldest entries and counts exactly those") {
  EmptyRings();
  for (uint64_t tag = 1; tag <= kEntries + 5; ++tag) FlightHostCallEnd(Call(tag), tag * 10 + 5, 0);
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  CHECK(snapshot.entries_per_thread == kEntries);
  CHECK(snapshot.seen == kEntries + 5);
  CHECK(snapshot.overwritten == 5);
  CHECK(snapshot.torn == 0);
  REQUIRE(snapshot.entries.size() == kEntries);
  CHECK(snapshot.entries.front().start_ns == 60);  // tags 6..37 remain
  CHECK(snapshot.entries.back().start_ns == 370);
  for (const FlightHostEntry& entry : snapshot.entries) {
    CHECK(Consistent(entry));
    CHECK(entry.end_ns == entry.start_ns + 5);
  }
}

TEST_CASE("a call not returned is kept running, and a lapped call's end leaves the slot be") {
  EmptyRings();
  const uint64_t blocked = Call(1);  // e.g. a cudaStreamSynchronize that never returns
  FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  REQUIRE(snapshot.entries.size() == 1);
  CHECK(snapshot.entries[0].end_ns == 0);
  for (uint64_t tag = 2; tag <= kEntries + 1; ++tag) Call(tag);  // laps entry 1
  FlightHostCallEnd(blocked, 999, 7);
  snapshot = TakeFlightHostSnapshot();
  REQUIRE(snapshot.entries.size() == kEntries);
  CHECK(snapshot.entries[0].start_ns == 20);
  for (const FlightHostEntry& entry : snapshot.entries) CHECK(entry.end_ns == 0);
}

TEST_CASE("ranges pair with their pops, innermost first; a long name is cut at 63 bytes") {
  EmptyRings();
  const std::string long_name(100, 'x');
  FlightHostPush(2, "forward", 100);
  FlightHostPush(0, long_name.c_str(), 110);
  FlightHostPop(120);                     // ends the long-named one
  FlightHostRange(3, "whole", 130, 125);  // an end before its start is clamped
  FlightHostPop(0);                       // ends "forward" (an end of 0 is kept as 1: ended)
  FlightHostPop(140);                     // nothing open: ignored
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  REQUIRE(snapshot.entries.size() == 3);
  CHECK(std::string(snapshot.entries[0].name) == "forward");
  CHECK(snapshot.entries[0].range_kind == 2);
  CHECK(snapshot.entries[0].end_ns == 1);
  CHECK(std::string(snapshot.entries[1].name) == std::string(63, 'x'));
  CHECK(snapshot.entries[1].end_ns == 120);
  CHECK(std::string(snapshot.entries[2].name) == "whole");
  CHECK(snapshot.entries[2].end_ns == 130);
  for (const FlightHostEntry& entry : snapshot.entries) CHECK(entry.kind == FlightHostKind::kRange);
}

TEST_CASE("a push kept only as a level (an NVTX step range) leaves no entry; pops stay paired") {
  EmptyRings();
  FlightHostPush(0, "outer", 10);
  FlightHostPush(0, "ProfileStep#3", 20, /*keep=*/false);
  FlightHostPush(0, "inner", 30);
  FlightHostPop(40);  // inner
  FlightHostPop(50);  // the step level: nothing to end
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  REQUIRE(snapshot.entries.size() == 2);
  CHECK(std::string(snapshot.entries[0].name) == "outer");
  CHECK(snapshot.entries[0].end_ns == 0);  // still open
  CHECK(std::string(snapshot.entries[1].name) == "inner");
  CHECK(snapshot.entries[1].end_ns == 40);
  FlightHostPop(60);  // outer
  CHECK(TakeFlightHostSnapshot().entries[0].end_ns == 60);
}

TEST_CASE("an entry being written is counted torn, not shown") {
  EmptyRings();
  Call(1);
  CHECK(internal::FlightHostOpenForTest() != 0);  // tickets go on across resets
  Call(3);
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  CHECK(snapshot.seen == 3);
  CHECK(snapshot.torn == 1);
  REQUIRE(snapshot.entries.size() == 2);
  CHECK(snapshot.entries[0].start_ns == 10);
  CHECK(snapshot.entries[1].start_ns == 30);
}

TEST_CASE("a reader racing the owner copies whole entries or counts them torn") {
  EmptyRings();
  std::atomic<bool> stop{false};
  std::atomic<bool> started{false};
  std::thread owner([&] {
    for (uint64_t tag = 1; !stop.load(std::memory_order_relaxed); ++tag) {
      FlightHostCallEnd(Call(tag), tag * 10 + 5, 0);
      started.store(true, std::memory_order_release);
    }
  });
  // On a loaded machine the owner may not run before the reader's rounds are over: read
  // only once it has written (else the test checks nothing, and `copied` stays 0).
  while (!started.load(std::memory_order_acquire)) std::this_thread::yield();
  uint64_t copied = 0;
  for (int round = 0; round < 2000 && copied < 20000; ++round) {
    const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
    for (const FlightHostEntry& entry : snapshot.entries) REQUIRE(Consistent(entry));
    CHECK(snapshot.entries.size() + snapshot.torn + snapshot.overwritten == snapshot.seen);
    copied += snapshot.entries.size();
  }
  stop = true;
  owner.join();
  CHECK(copied > 0);
}

TEST_CASE("an exited thread's ring goes to the next thread, with its entries kept") {
  EmptyRings();
  std::thread([] { Call(1); }).join();
  std::thread([] { Call(2); }).join();
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  REQUIRE(snapshot.entries.size() == 2);
  CHECK(snapshot.entries[0].thread_id != snapshot.entries[1].thread_id);
  CHECK(snapshot.seen == 2);
  CHECK(snapshot.threads_refused == 0);
}

TEST_CASE("70 threads at once: those beyond the 64 rings keep their last calls on small rings") {
  EmptyRings();
  const uint64_t small_before = TakeFlightHostSnapshot().threads_small;
  // This thread holds a full ring from the cases before (it stays its own): 63 full rings
  // are left for the 70 threads, so 7 get a small one. Each makes 20 calls (tags
  // 1000*t + 1..20) and stays alive until the snapshot is taken.
  constexpr int kThreads = 70, kCalls = 20, kSmall = 70 - 63;
  Call(1);
  std::mutex mutex;
  std::condition_variable changed;
  int ready = 0;
  bool release = false;
  std::vector<std::thread> threads;
  for (int t = 1; t <= kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 1; i <= kCalls; ++i) {
        const uint64_t tag = 1000 * t + i;
        FlightHostCallEnd(Call(tag), tag * 10 + 5, 0);
      }
      std::unique_lock<std::mutex> lock(mutex);
      ++ready;
      changed.notify_all();
      changed.wait(lock, [&] { return release; });
    });
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return ready == kThreads; });
  }
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  {
    std::lock_guard<std::mutex> lock(mutex);
    release = true;
  }
  changed.notify_all();
  for (std::thread& thread : threads) thread.join();

  CHECK(snapshot.threads_refused == 0);
  CHECK(snapshot.threads_small - small_before == kSmall);
  CHECK(snapshot.seen == 1 + kThreads * kCalls);
  // A small ring keeps its thread's last 16 calls: 4 of 20 overwritten on each.
  CHECK(snapshot.overwritten == kSmall * (kCalls - kFlightHostSmallEntries));
  CHECK(snapshot.entries.size() ==
        1 + (kThreads - kSmall) * kCalls + kSmall * kFlightHostSmallEntries);
  std::map<uint64_t, uint64_t> last_by_thread;  // thread id -> latest tag kept
  for (const FlightHostEntry& entry : snapshot.entries) {
    CHECK(Consistent(entry));
    uint64_t& last = last_by_thread[entry.thread_id];
    last = std::max(last, entry.start_ns / 10);
  }
  REQUIRE(last_by_thread.size() == 1 + kThreads);
  size_t with_last_call = 0;
  for (const auto& [thread, tag] : last_by_thread) with_last_call += tag % 1000 == kCalls;
  CHECK(with_last_call == kThreads);  // every thread's last call is in the snapshot
}

TEST_CASE("after fork the child's rings show nothing of the parent's") {
  EmptyRings();
  Call(1);
  Call(2);
  ResetFlightHostAfterFork();  // as the atfork child handler does
  CHECK(TakeFlightHostSnapshot().entries.empty());
  Call(3);
  const FlightHostSnapshot snapshot = TakeFlightHostSnapshot();
  REQUIRE(snapshot.entries.size() == 1);
  CHECK(snapshot.entries[0].start_ns == 30);
  CHECK(snapshot.overwritten == 0);
}

}  // namespace
}  // namespace prof
