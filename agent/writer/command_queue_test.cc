// The writer's command queue keeps push order, with and without overflow, while producer
// and consumer run at once (the ring is small here, so the overflow path is taken often).
#include "agent/writer/command_queue.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

namespace prof {
namespace {

TEST_CASE("command queue: a stalled consumer loses nothing and sees push order") {
  CommandQueue<int, 4> queue;
  for (int i = 0; i < 10; ++i) queue.Push(i);  // 4 in the ring, 6 overflow
  queue.Push(10);                              // still behind the overflow
  std::vector<int> out;
  queue.TakeAll(&out);
  CHECK(out == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK(queue.empty());
  queue.Push(11);  // the ring again
  out.clear();
  queue.TakeAll(&out);
  CHECK(out == std::vector<int>{11});
}

TEST_CASE("command queue: concurrent producer and consumer, order kept") {
  constexpr int kValues = 200000;
  CommandQueue<int, 8> queue;
  std::thread producer([&] {
    for (int i = 0; i < kValues; ++i) queue.Push(i);
  });
  std::vector<int> out;
  out.reserve(kValues);
  while (static_cast<int>(out.size()) < kValues) queue.TakeAll(&out);
  producer.join();
  queue.TakeAll(&out);
  REQUIRE(out.size() == static_cast<size_t>(kValues));
  int out_of_order = 0;
  for (int i = 0; i < kValues; ++i) out_of_order += out[i] != i;
  CHECK(out_of_order == 0);
}

}  // namespace
}  // namespace prof
