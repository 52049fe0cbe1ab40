#include "agent/record/flight_host.h"

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "agent/record/buffer_registry.h"
#include "agent/record/errno_preserved.h"

namespace prof {
namespace internal {

namespace {

// One entry. Every field is an atomic so that the reader's copy during a rewrite is a race
// only in the seqlock's sense (detected by `version`), never undefined behaviour.
struct alignas(64) HostSlot {
  std::atomic<uint64_t> version{0};  // 2*ticket-1 while written, 2*ticket once stable
  std::atomic<uint64_t> packed{0};   // kind (8) | range kind (8) | api (16)
  std::atomic<uint64_t> thread_id{0};
  std::atomic<uint64_t> start_ns{0};
  std::atomic<uint64_t> end_ns{0};  // 0 until the entry ends
  std::atomic<int64_t> status{0};
  std::atomic<uint64_t> stream_plus_one{0};
  std::atomic<uint64_t> function{0};
  std::atomic<uint64_t> name[kFlightHostNameBytes / 8];
};
static_assert(sizeof(HostSlot) == 128, "the documented memory bound assumes 128-byte slots");

}  // namespace

// The innermost ranges pushed by the ring's owner: their tickets, so a pop ends the right
// entry. Kept in the ring, not in thread-local storage: the agent's initial-exec TLS must
// stay small for `import libprof` to dlopen it (glibc's surplus static TLS is a few
// hundred bytes).
constexpr int kOpenRanges = 64;

struct FlightHostRing {
  std::atomic<HostSlot*> slots{nullptr};  // set once when first claimed, never freed
  uint64_t mask = 0;                      // capacity - 1; set before `slots` is published
  std::atomic<uint64_t> head{0};          // tickets handed out (the owner's plain increment)
  std::atomic<uint64_t> floor{0};         // tickets up to here predate a fork: not shown
  std::atomic<bool> in_use{false};
  int depth = 0;  // owner only
  uint64_t open[kOpenRanges] = {};
};

thread_local FlightHostRing* t_flight_host __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

size_t g_entries = 0;  // per full ring, a power of two; 0: off
// The first kFlightHostRings hold g_entries slots, the rest (for threads beyond them)
// kFlightHostSmallEntries. A ring's index never changes its size.
FlightHostRing g_rings[kFlightHostAllRings];
// Rings ever claimed are a prefix of g_rings (a claim takes the first free one): the
// writer and the fork reset look no further, so untouched rings stay untouched pages.
std::atomic<size_t> g_rings_claimed{0};
std::atomic<uint64_t> g_threads_refused{0};
std::atomic<uint64_t> g_threads_small{0};
pthread_key_t g_exit_key;

// The innermost ranges pushed on this thread: their tickets, so a pop ends the right entry.
// Once refused, a thread does not look again (the rings are all taken).
thread_local bool t_refused __attribute__((tls_model("initial-exec"))) = false;

// Claims a free ring: one an exited thread left, else a new one (allocated here, once per
// ring; the slots are never freed, so the writer may read them at any time).
FlightHostRing* ClaimRing() {
  for (size_t i = 0; i < kFlightHostAllRings; ++i) {
    FlightHostRing& ring = g_rings[i];
    bool expected = false;
    if (!ring.in_use.compare_exchange_strong(expected, true, std::memory_order_acquire)) continue;
    if (ring.slots.load(std::memory_order_relaxed) == nullptr) {
      const size_t entries =
          i < kFlightHostRings ? g_entries : std::min(g_entries, kFlightHostSmallEntries);
      HostSlot* slots = new (std::nothrow) HostSlot[entries];
      if (slots == nullptr) {
        ring.in_use.store(false, std::memory_order_release);
        return nullptr;
      }
      ring.mask = entries - 1;
      ring.slots.store(slots, std::memory_order_release);
      size_t claimed = g_rings_claimed.load(std::memory_order_relaxed);
      while (claimed < i + 1 && !g_rings_claimed.compare_exchange_weak(
                                    claimed, i + 1, std::memory_order_release)) {
      }
    }
    if (i >= kFlightHostRings) g_threads_small.fetch_add(1, std::memory_order_relaxed);
    return &ring;
  }
  return nullptr;
}

}  // namespace

FlightHostRing* AdoptFlightHostRing() {
  if (g_entries == 0 || t_refused) return nullptr;
  ErrnoPreserved keep;  // allocation and pthread calls may set errno
  FlightHostRing* ring = ClaimRing();
  if (ring == nullptr) {
    t_refused = true;
    g_threads_refused.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  t_flight_host = ring;
  ring->depth = 0;  // the ranges an exited owner left open are not this thread's
  // Frees the ring when the thread exits, for the next thread to adopt.
  pthread_setspecific(g_exit_key, ring);
  return ring;
}

}  // namespace internal

namespace {

using internal::FlightHostRing;
using internal::HostSlot;

inline FlightHostRing* CurrentRing() {
  FlightHostRing* ring = internal::t_flight_host;
  return ring ? ring : internal::AdoptFlightHostRing();
}

// Opens a new entry in the calling thread's ring; returns its ticket (0: none kept).
inline uint64_t Open(FlightHostRing* ring, uint64_t packed, uint64_t start_ns, HostSlot** out) {
  const uint64_t ticket = ring->head.load(std::memory_order_relaxed) + 1;
  ring->head.store(ticket, std::memory_order_release);
  HostSlot& slot = ring->slots.load(std::memory_order_relaxed)[(ticket - 1) & ring->mask];
  slot.version.store(2 * ticket - 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot.packed.store(packed, std::memory_order_relaxed);
  slot.thread_id.store(CurrentThreadId(), std::memory_order_relaxed);
  slot.start_ns.store(start_ns, std::memory_order_relaxed);
  slot.end_ns.store(0, std::memory_order_relaxed);
  slot.status.store(0, std::memory_order_relaxed);
  *out = &slot;
  return ticket;
}

inline void Publish(HostSlot* slot, uint64_t ticket) {
  slot->version.store(2 * ticket, std::memory_order_release);
}

// The handle of an entry: its ring's index and its ticket.
constexpr int kRingIndexBits = 10;
static_assert(kFlightHostAllRings == 1 << kRingIndexBits, "a handle's ring index bits");
inline uint64_t Handle(const FlightHostRing* ring, uint64_t ticket) {
  return (ticket << kRingIndexBits) | static_cast<uint64_t>(ring - internal::g_rings);
}

void End(FlightHostRing* ring, uint64_t ticket, uint64_t end_ns, int32_t status) {
  HostSlot& slot = ring->slots.load(std::memory_order_relaxed)[(ticket - 1) & ring->mask];
  if (slot.version.load(std::memory_order_relaxed) != 2 * ticket) return;  // lapped
  slot.status.store(status, std::memory_order_relaxed);
  slot.end_ns.store(end_ns > 0 ? end_ns : 1, std::memory_order_release);
}

void StoreName(HostSlot* slot, const char* name) {
  uint64_t words[kFlightHostNameBytes / 8] = {};
  if (name) {
    const size_t length = strnlen(name, kFlightHostNameBytes - 1);
    std::memcpy(words, name, length);
  }
  for (size_t i = 0; i < kFlightHostNameBytes / 8; ++i)
    slot->name[i].store(words[i], std::memory_order_relaxed);
}

uint64_t RangePacked(uint8_t range_kind) {
  return uint64_t{static_cast<uint8_t>(FlightHostKind::kRange)} << 24 | uint64_t{range_kind} << 16;
}

// False when the slot was being written or changed while copied, or holds another ticket.
bool CopySlot(const HostSlot& slot, uint64_t ticket, FlightHostEntry* entry) {
  const uint64_t before = slot.version.load(std::memory_order_acquire);
  if (before != 2 * ticket) return false;
  const uint64_t packed = slot.packed.load(std::memory_order_relaxed);
  entry->kind = static_cast<FlightHostKind>(packed >> 24);
  entry->range_kind = static_cast<uint8_t>(packed >> 16);
  entry->api = static_cast<uint16_t>(packed);
  entry->thread_id = slot.thread_id.load(std::memory_order_relaxed);
  entry->start_ns = slot.start_ns.load(std::memory_order_relaxed);
  entry->end_ns = slot.end_ns.load(std::memory_order_acquire);
  entry->status = static_cast<int32_t>(slot.status.load(std::memory_order_relaxed));
  entry->stream_plus_one = slot.stream_plus_one.load(std::memory_order_relaxed);
  entry->function = reinterpret_cast<const void*>(slot.function.load(std::memory_order_relaxed));
  uint64_t words[kFlightHostNameBytes / 8];
  for (size_t i = 0; i < kFlightHostNameBytes / 8; ++i)
    words[i] = slot.name[i].load(std::memory_order_relaxed);
  std::memcpy(entry->name, words, sizeof(words));
  entry->name[kFlightHostNameBytes - 1] = '\0';
  std::atomic_thread_fence(std::memory_order_acquire);
  return slot.version.load(std::memory_order_relaxed) == before;
}

}  // namespace

void ConfigureFlightHost(size_t entries) {
  if (entries == 0 || internal::g_entries != 0) return;
  size_t rounded = 1;
  while (rounded < entries) rounded <<= 1;
  // Runs on a thread as it exits: it keeps nothing more (thread-exit code of other
  // libraries may still call CUDA), and its ring goes to the next thread that adopts one.
  if (pthread_key_create(&internal::g_exit_key, [](void* ring) {
        internal::t_flight_host = nullptr;
        internal::t_refused = true;
        static_cast<FlightHostRing*>(ring)->in_use.store(false, std::memory_order_release);
      }) != 0) {
    return;  // without exit notices rings would leak to exited threads: stay off
  }
  internal::g_entries = rounded;
}

uint64_t FlightHostCallEnter(uint16_t api, uint64_t stream_plus_one, const void* function,
                             uint64_t start_ns) {
  FlightHostRing* ring = CurrentRing();
  if (ring == nullptr) return 0;
  HostSlot* slot;
  const uint64_t ticket = Open(
      ring, uint64_t{static_cast<uint8_t>(FlightHostKind::kApiCall)} << 24 | api, start_ns, &slot);
  slot->stream_plus_one.store(stream_plus_one, std::memory_order_relaxed);
  slot->function.store(reinterpret_cast<uint64_t>(function), std::memory_order_relaxed);
  Publish(slot, ticket);
  return Handle(ring, ticket);
}

void FlightHostCallEnd(uint64_t handle, uint64_t end_ns, int32_t status) {
  if (handle == 0) return;
  End(&internal::g_rings[handle & (kFlightHostAllRings - 1)], handle >> kRingIndexBits, end_ns,
      status);
}

void FlightHostPush(uint8_t range_kind, const char* name, uint64_t start_ns, bool keep) {
  FlightHostRing* ring = CurrentRing();
  if (ring == nullptr) return;
  if (!keep) {
    const int depth = ring->depth++;
    if (depth < internal::kOpenRanges) ring->open[depth] = 0;  // no entry to end
    return;
  }
  HostSlot* slot;
  const uint64_t ticket = Open(ring, RangePacked(range_kind), start_ns, &slot);
  slot->stream_plus_one.store(0, std::memory_order_relaxed);
  slot->function.store(0, std::memory_order_relaxed);
  StoreName(slot, name);
  Publish(slot, ticket);
  const int depth = ring->depth++;
  if (depth < internal::kOpenRanges) ring->open[depth] = ticket;
}

void FlightHostPop(uint64_t end_ns) {
  FlightHostRing* ring = internal::t_flight_host;
  if (ring == nullptr || ring->depth == 0) return;  // a pop without a push kept
  const int depth = --ring->depth;
  if (depth < internal::kOpenRanges && ring->open[depth] != 0) {
    End(ring, ring->open[depth], end_ns, 0);
  }
}

void FlightHostRange(uint8_t range_kind, const char* name, uint64_t start_ns, uint64_t end_ns) {
  FlightHostRing* ring = CurrentRing();
  if (ring == nullptr) return;
  HostSlot* slot;
  const uint64_t ticket = Open(ring, RangePacked(range_kind), start_ns, &slot);
  slot->stream_plus_one.store(0, std::memory_order_relaxed);
  slot->function.store(0, std::memory_order_relaxed);
  slot->end_ns.store(std::max(end_ns, start_ns), std::memory_order_relaxed);
  StoreName(slot, name);
  Publish(slot, ticket);
}

FlightHostSnapshot TakeFlightHostSnapshot() {
  FlightHostSnapshot snapshot;
  snapshot.entries_per_thread = internal::g_entries;
  snapshot.threads_refused = internal::g_threads_refused.load(std::memory_order_relaxed);
  snapshot.threads_small = internal::g_threads_small.load(std::memory_order_relaxed);
  if (internal::g_entries == 0) return snapshot;
  const size_t claimed = internal::g_rings_claimed.load(std::memory_order_acquire);
  for (size_t i = 0; i < claimed; ++i) {
    const FlightHostRing& ring = internal::g_rings[i];
    // Published before the ring's first entry; a ring without slots has no entries yet.
    const HostSlot* slots = ring.slots.load(std::memory_order_acquire);
    if (slots == nullptr) continue;
    const uint64_t head = ring.head.load(std::memory_order_acquire);
    const uint64_t floor = ring.floor.load(std::memory_order_relaxed);
    if (head <= floor) continue;
    const uint64_t capacity = ring.mask + 1;
    const uint64_t first =
        std::max(floor + 1, head > capacity ? head - capacity + 1 : uint64_t{1});
    snapshot.seen += head - floor;
    snapshot.overwritten += first - 1 - floor;
    for (uint64_t ticket = first; ticket <= head; ++ticket) {
      FlightHostEntry entry;
      if (CopySlot(slots[(ticket - 1) & ring.mask], ticket, &entry)) {
        snapshot.entries.push_back(entry);
      } else {
        ++snapshot.torn;
      }
    }
  }
  std::stable_sort(
      snapshot.entries.begin(), snapshot.entries.end(),
      [](const FlightHostEntry& a, const FlightHostEntry& b) { return a.start_ns < b.start_ns; });
  return snapshot;
}

namespace internal {

uint64_t FlightHostOpenForTest() {
  FlightHostRing* ring = CurrentRing();
  if (ring == nullptr) return 0;
  HostSlot* slot;
  return Open(ring, RangePacked(0), 1, &slot);
}

}  // namespace internal

void ResetFlightHostAfterFork() {
  const size_t claimed = internal::g_rings_claimed.load(std::memory_order_relaxed);
  for (size_t i = 0; i < claimed; ++i) {
    FlightHostRing& ring = internal::g_rings[i];
    ring.floor.store(ring.head.load(std::memory_order_relaxed), std::memory_order_relaxed);
    ring.in_use.store(false, std::memory_order_relaxed);
  }
  internal::t_flight_host = nullptr;
  internal::t_refused = false;
}

}  // namespace prof
