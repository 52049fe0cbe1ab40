#include "agent/record/flight_events.h"

#include <atomic>

#include "agent/record/flight_ring.h"

namespace prof {
namespace {

// A pair's life: kFree -> kClaimed (a program thread records) -> kPublished (the writer
// polls) -> kFree. Only the owner of the current state touches the events and the ticket.
enum PairState : uint32_t { kFree = 0, kClaimed = 1, kPublished = 2 };

struct Pair {
  std::atomic<uint32_t> state{kFree};
  std::atomic<uint64_t> ticket{0};
  void* start = nullptr;  // created by the first claimer, kept for the next ones
  void* end = nullptr;
};

// The functions, published once with `g_available` (release).
FlightEventFunctions g_functions;
std::atomic<bool> g_available{false};
Pair g_pairs[kFlightEventPairs];
std::atomic<uint64_t> g_cursor{0};  // where the next claim looks first
std::atomic<uint64_t> g_untracked{0};

// A few tries from the cursor: a pool this full means the writer is far behind, and a
// longer search would only cost the program's thread more.
constexpr int kClaimTries = 4;

Pair* Claim(uint32_t* index) {
  for (int attempt = 0; attempt < kClaimTries; ++attempt) {
    const uint32_t at =
        static_cast<uint32_t>(g_cursor.fetch_add(1, std::memory_order_relaxed) % kFlightEventPairs);
    uint32_t expected = kFree;
    if (g_pairs[at].state.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire,
                                                  std::memory_order_relaxed)) {
      *index = at;
      return &g_pairs[at];
    }
  }
  return nullptr;
}

bool EnsureEvents(Pair* pair) {
  if (pair->start == nullptr && g_functions.create(&pair->start, kFlightEventFlags) != 0) {
    pair->start = nullptr;
    return false;
  }
  if (pair->end == nullptr && g_functions.create(&pair->end, kFlightEventFlags) != 0) {
    pair->end = nullptr;
    return false;
  }
  return true;
}

void Release(Pair* pair) { pair->state.store(kFree, std::memory_order_release); }

}  // namespace

void SetFlightEventFunctions(const FlightEventFunctions& functions) {
  if (g_available.load(std::memory_order_acquire)) return;
  if (!functions.create || !functions.record || !functions.query) return;
  g_functions = functions;
  g_available.store(true, std::memory_order_release);
}

bool FlightEventsAvailable() { return g_available.load(std::memory_order_acquire); }

void FlightEventsCountUntracked() { g_untracked.fetch_add(1, std::memory_order_relaxed); }

uint32_t FlightEventsBegin(uint64_t ticket, void* stream) {
  if (ticket == 0 || !FlightEventsAvailable()) {
    FlightEventsCountUntracked();
    return 0;
  }
  uint32_t index = 0;
  Pair* pair = Claim(&index);
  if (pair == nullptr) {
    FlightEventsCountUntracked();
    return 0;
  }
  if (!EnsureEvents(pair) || g_functions.record(pair->start, stream) != 0) {
    Release(pair);
    FlightEventsCountUntracked();
    return 0;
  }
  // Before the writer can see the pair, so its later kCompleted is never overwritten.
  FlightSetDeviceState(ticket, FlightDeviceState::kEnqueued);
  return index + 1;
}

void FlightEventsEnd(uint32_t pair_number, uint64_t ticket, void* stream) {
  if (pair_number == 0) return;
  Pair& pair = g_pairs[pair_number - 1];
  if (g_functions.record(pair.end, stream) != 0) {
    FlightEventsAbandon(pair_number, ticket);
    return;
  }
  pair.ticket.store(ticket, std::memory_order_relaxed);
  pair.state.store(kPublished, std::memory_order_release);
}

void FlightEventsAbandon(uint32_t pair_number, uint64_t ticket) {
  if (pair_number == 0) return;
  // Marked kEnqueued already: completed, so no hang is claimed for a call whose end
  // could not be followed.
  FlightSetDeviceState(ticket, FlightDeviceState::kCompleted);
  Release(&g_pairs[pair_number - 1]);
  FlightEventsCountUntracked();
}

size_t PollFlightEvents() {
  if (!FlightEventsAvailable()) return 0;
  size_t pending = 0;
  for (Pair& pair : g_pairs) {
    if (pair.state.load(std::memory_order_acquire) != kPublished) continue;
    const uint64_t ticket = pair.ticket.load(std::memory_order_relaxed);
    const int end = g_functions.query(pair.end);
    if (end == 0) {
      FlightSetDeviceState(ticket, FlightDeviceState::kCompleted);
      Release(&pair);
      continue;
    }
    ++pending;
    // Another error is the context's (a fault): the call stays as it is, and a dump
    // caused by that failure shows where it was.
    if (end == kFlightEventNotReady && g_functions.query(pair.start) == 0) {
      FlightSetDeviceState(ticket, FlightDeviceState::kStarted);
    }
  }
  return pending;
}

uint64_t FlightEventsUntracked() { return g_untracked.load(std::memory_order_relaxed); }

void ResetFlightEventsAfterFork() {
  g_available.store(false, std::memory_order_relaxed);
  for (Pair& pair : g_pairs) {
    pair.state.store(kFree, std::memory_order_relaxed);
    pair.start = pair.end = nullptr;
  }
  g_untracked.store(0, std::memory_order_relaxed);
}

namespace internal {

void ResetFlightEventsForTest() {
  ResetFlightEventsAfterFork();
  g_functions = FlightEventFunctions{};
  g_cursor.store(0, std::memory_order_relaxed);
}

}  // namespace internal

}  // namespace prof
