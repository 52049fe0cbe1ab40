// The drain horizon's promise: once Advance() returned H, everything a producer queued
// under a Producing scope with a timestamp before H is visible to the writer's next take.
#include "agent/writer/drain_horizon.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>
#include <vector>

#include "agent/record/clock.h"

namespace prof {
namespace {

TEST_CASE("with no producer in flight the horizon is the writer's clock") {
  DrainHorizon horizon;
  const uint64_t before = MonotonicNs();
  const uint64_t h = horizon.Advance();
  CHECK(before <= h);
  CHECK(h <= MonotonicNs());
}

TEST_CASE("while a producer is in flight the horizon stays where it was") {
  DrainHorizon horizon;
  const uint64_t first = horizon.Advance();
  {
    DrainHorizon::Producing producing(horizon);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    CHECK(horizon.Advance() == first);
    DrainHorizon::Producing second(horizon);  // two at once (steps on two threads)
    CHECK(horizon.Advance() == first);
  }
  CHECK(horizon.Advance() >= first + 2000000);
}

// Producers stamp and queue values as fast as they can; the writer advances the horizon and
// takes the queue, over and over. No value stamped before a pass's horizon may be missing
// from what that pass took.
TEST_CASE("every value stamped before the horizon is taken with it") {
  DrainHorizon horizon;
  std::mutex queue_mutex;
  std::vector<uint64_t> queue;  // stamps, in queue order
  std::atomic<bool> running{true};
  auto produce = [&] {
    while (running.load(std::memory_order_relaxed)) {
      DrainHorizon::Producing producing(horizon);
      const uint64_t stamp = MonotonicNs();
      while (MonotonicNs() < stamp + 1000) {
      }  // a step boundary's bookkeeping between its timestamp and its command
      std::lock_guard<std::mutex> lock(queue_mutex);
      queue.push_back(stamp);
    }
  };
  std::thread first(produce), second(produce);
  struct Pass {
    uint64_t horizon;
    size_t taken;  // queue[0, taken) taken by this pass
  };
  std::vector<Pass> passes;
  const uint64_t end = MonotonicNs() + 300000000;  // 0.3 s
  while (MonotonicNs() < end) {
    const uint64_t h = horizon.Advance();
    std::lock_guard<std::mutex> lock(queue_mutex);
    passes.push_back({h, queue.size()});
  }
  running.store(false);
  first.join();
  second.join();
  // later_min[i]: the earliest stamp among queue[i...], the values a pass taking i left.
  std::vector<uint64_t> later_min(queue.size() + 1, UINT64_MAX);
  for (size_t i = queue.size(); i-- > 0;) later_min[i] = std::min(queue[i], later_min[i + 1]);
  uint64_t missed = 0;  // passes that left a value stamped before their horizon
  for (const Pass& pass : passes) missed += later_min[pass.taken] < pass.horizon ? 1 : 0;
  INFO(passes.size() << " passes, " << queue.size() << " values");
  CHECK(passes.size() > 100);
  CHECK(missed == 0);
}

}  // namespace
}  // namespace prof
