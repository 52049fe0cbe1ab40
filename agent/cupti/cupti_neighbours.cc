#include "agent/cupti/cupti_neighbours.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "agent/record/clock.h"
#include "agent/record/writer_doorbell.h"

namespace prof {
namespace {

constexpr uint64_t kReleaseWaitNs = 2000000000;

std::atomic<int> g_refusing{0};
std::atomic<uint64_t> g_refused{0};
std::atomic<bool> g_agent_holds{false};
std::atomic<const void*> g_foreign{nullptr};
// Release requests made and acknowledged (request numbers; acknowledged >= asked: done).
std::atomic<uint64_t> g_release_asked{0};
std::atomic<uint64_t> g_release_done{0};

}  // namespace

bool RefuseForeignSubscriber() {
  if (g_refusing.load(std::memory_order_acquire) <= 0) return false;
  g_refused.fetch_add(1, std::memory_order_relaxed);
  return true;
}

uint64_t ForeignSubscribersRefused() { return g_refused.load(std::memory_order_relaxed); }

void SetRefuseForeignSubscribers(bool refuse) {
  if (refuse) {
    g_refusing.fetch_add(1, std::memory_order_acq_rel);
  } else if (g_refusing.load(std::memory_order_acquire) > 0) {
    g_refusing.fetch_sub(1, std::memory_order_acq_rel);
  }
}

bool ReleaseForForeignSubscriber() {
  if (!g_agent_holds.load(std::memory_order_acquire)) return true;
  const uint64_t ask = g_release_asked.fetch_add(1, std::memory_order_acq_rel) + 1;
  TheWriterDoorbell().Ring();
  const uint64_t deadline = MonotonicNs() + kReleaseWaitNs;
  while (g_release_done.load(std::memory_order_acquire) < ask) {
    if (!g_agent_holds.load(std::memory_order_acquire)) return true;
    if (MonotonicNs() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

void NoteForeignSubscribed(const void* subscriber) {
  g_foreign.store(subscriber, std::memory_order_release);
}

void NoteForeignUnsubscribed(const void* subscriber) {
  const void* expected = subscriber;
  if (g_foreign.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) {
    TheWriterDoorbell().Ring();  // the writer takes CUPTI back at once
  }
}

bool ForeignSubscriberHolds() { return g_foreign.load(std::memory_order_acquire) != nullptr; }

bool ReleaseRequested() {
  return g_release_done.load(std::memory_order_acquire) <
         g_release_asked.load(std::memory_order_acquire);
}

void NoteAgentHoldsCupti(bool holds) {
  if (!holds) {
    g_release_done.store(g_release_asked.load(std::memory_order_acquire),
                         std::memory_order_release);
  }
  g_agent_holds.store(holds, std::memory_order_release);
}

}  // namespace prof
