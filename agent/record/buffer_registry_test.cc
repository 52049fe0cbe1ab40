#include "agent/record/buffer_registry.h"

#include <atomic>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/record/recorder.h"
#include "agent/record/step_losses.h"

namespace prof {
namespace {

// Many short-lived threads record while a "writer" drains: every record is either
// drained or counted as dropped, whatever the reuse of exited threads' buffers.
TEST_CASE("short-lived threads: every record is drained or counted") {
  ConfigureBuffers(8u << 20);
  constexpr int kRounds = 20;
  constexpr int kThreadsPerRound = 8;
  constexpr int kRecordsPerThread = 2000;
  std::atomic<bool> done{false};
  uint64_t drained = 0;
  uint64_t dropped = 0;
  std::thread writer([&] {
    auto count_lost = [&](int32_t, int64_t, uint64_t count) { dropped += count; };
    auto drain_all = [&] {
      ForEachBuffer([&](ThreadBuffer& buffer) {
        drained += buffer.Drain([](const Record&) {});
        buffer.TakeLosses(count_lost);
        buffer.ReleaseIfExited();
      });
      TakeThreadLimitDrops(count_lost);
      TakeDisplacedLosses(count_lost);
    };
    while (!done.load()) drain_all();
    drain_all();
  });
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreadsPerRound; ++t) {
      threads.emplace_back([] {
        for (int i = 0; i < kRecordsPerThread; ++i) {
          RecordApiCall(1, i, i + 1, 0, ApiArguments());
        }
      });
    }
    for (auto& thread : threads) thread.join();
  }
  done.store(true);
  writer.join();
  CHECK(drained + dropped == uint64_t{kRounds} * kThreadsPerRound * kRecordsPerThread);
}

}  // namespace
}  // namespace prof
