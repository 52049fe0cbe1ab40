#include "agent/record/flight_ring.h"

#include <algorithm>
#include <memory>
#include <new>

#include "agent/record/buffer_registry.h"
#include "agent/record/flight_events.h"
#include "agent/record/recorder.h"

namespace prof {
namespace internal {
std::atomic<bool> g_flight_on{false};
}  // namespace internal

namespace {

// One call. Every field is an atomic so that the reader's copy during a rewrite is a data
// race only in the seqlock's sense (detected by `version`), never undefined behaviour.
struct alignas(64) Slot {
  std::atomic<uint64_t> version{0};  // 2*ticket-1 while written, 2*ticket once stable
  std::atomic<uint64_t> comm{0};
  std::atomic<int64_t> sequence{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> count{0};
  std::atomic<uint64_t> stream{0};
  std::atomic<uint64_t> thread_id{0};
  std::atomic<uint64_t> enter_ns{0};
  // root_or_peer (32 bits) | reduction (16) | operation (8) | data type (8)
  std::atomic<uint64_t> packed{0};
  std::atomic<uint64_t> return_ns{0};
  std::atomic<int32_t> result{0};
  std::atomic<uint64_t> returned_ticket{0};  // == ticket: returned
  // ticket << 2 | FlightDeviceState: the state is this call's only when the ticket matches.
  std::atomic<uint64_t> device{0};
};
static_assert(sizeof(Slot) == 128, "the documented memory bound assumes 128-byte slots");

struct StepSlot {
  std::atomic<uint64_t> version{0};
  std::atomic<int64_t> number{0};
  std::atomic<uint64_t> start_ns{0};
  std::atomic<uint64_t> end_ns{0};
};

Slot* g_slots = nullptr;  // set once before any hook runs, never freed
size_t g_capacity = 0;
std::atomic<uint64_t> g_head{0};  // tickets handed out
StepSlot g_steps[kFlightSteps];
std::atomic<uint64_t> g_step_head{0};

uint64_t Pack(const FlightCallArguments& a) {
  return (uint64_t{static_cast<uint32_t>(a.root_or_peer)} << 32) |
         (uint64_t{static_cast<uint16_t>(a.reduction)} << 16) |
         (uint64_t{static_cast<uint8_t>(a.operation)} << 8) | a.data_type;
}

void Unpack(uint64_t packed, FlightCallArguments* a) {
  a->root_or_peer = static_cast<int32_t>(packed >> 32);
  a->reduction = static_cast<int16_t>((packed >> 16) & 0xffff);
  a->operation = static_cast<uint16_t>((packed >> 8) & 0xff);
  a->data_type = static_cast<uint8_t>(packed & 0xff);
}

FlightDeviceState DeviceStateOf(const Slot& slot, uint64_t ticket) {
  const uint64_t word = slot.device.load(std::memory_order_acquire);
  if (word >> 2 != ticket) return FlightDeviceState::kUntracked;
  return static_cast<FlightDeviceState>(word & 3);
}

// False when the slot was being written or changed while copied.
bool CopySlot(const Slot& slot, FlightCall* call) {
  const uint64_t before = slot.version.load(std::memory_order_acquire);
  if (before == 0 || (before & 1)) return false;
  call->ticket = before / 2;
  call->arguments.comm = reinterpret_cast<const void*>(slot.comm.load(std::memory_order_relaxed));
  call->arguments.sequence = slot.sequence.load(std::memory_order_relaxed);
  call->arguments.bytes = slot.bytes.load(std::memory_order_relaxed);
  call->arguments.count = slot.count.load(std::memory_order_relaxed);
  call->arguments.stream = slot.stream.load(std::memory_order_relaxed);
  Unpack(slot.packed.load(std::memory_order_relaxed), &call->arguments);
  call->thread_id = slot.thread_id.load(std::memory_order_relaxed);
  call->enter_ns = slot.enter_ns.load(std::memory_order_relaxed);
  call->returned = slot.returned_ticket.load(std::memory_order_acquire) == call->ticket;
  call->return_ns = call->returned ? slot.return_ns.load(std::memory_order_relaxed) : 0;
  call->result = call->returned ? slot.result.load(std::memory_order_relaxed) : 0;
  call->device = DeviceStateOf(slot, call->ticket);
  std::atomic_thread_fence(std::memory_order_acquire);
  return slot.version.load(std::memory_order_relaxed) == before;
}

// Makes `ticket` the slot's writer (version 2*ticket-1), unless the slot is still being
// filled by an older call whose writer was lapped (`capacity` calls went by during its few
// stores, e.g. while its thread was preempted), or a newer call already has it. Without
// this, two writers could interleave their fields under one even version and a reader
// would take the mix for a call. The call not recorded is counted torn by the reader (its
// ticket's slot holds another ticket), and a slot stays one writer's at a time.
bool Claim(Slot* slot, uint64_t ticket) {
  uint64_t current = slot->version.load(std::memory_order_relaxed);
  if ((current & 1) || current >= 2 * ticket - 1) return false;
  return slot->version.compare_exchange_strong(current, 2 * ticket - 1, std::memory_order_relaxed);
}

}  // namespace

void ConfigureFlight(size_t entries) {
  if (entries == 0 || g_slots != nullptr) return;
  g_slots = new (std::nothrow) Slot[entries];
  if (g_slots == nullptr) return;  // the recorder stays off; config.cc bounds `entries`
  g_capacity = entries;
  internal::g_flight_on.store(true, std::memory_order_release);
  internal::g_hook_mode.fetch_or(internal::kModeFlight, std::memory_order_release);
}

uint64_t FlightEnter(const FlightCallArguments& arguments, uint64_t enter_ns) {
  if (g_slots == nullptr) return 0;
  const uint64_t ticket = g_head.fetch_add(1, std::memory_order_relaxed) + 1;
  Slot& slot = g_slots[(ticket - 1) % g_capacity];
  if (!Claim(&slot, ticket)) return ticket;  // FlightReturn finds the slot not this call's
  std::atomic_thread_fence(std::memory_order_release);
  slot.comm.store(reinterpret_cast<uint64_t>(arguments.comm), std::memory_order_relaxed);
  slot.sequence.store(arguments.sequence, std::memory_order_relaxed);
  slot.bytes.store(arguments.bytes, std::memory_order_relaxed);
  slot.count.store(arguments.count, std::memory_order_relaxed);
  slot.stream.store(arguments.stream, std::memory_order_relaxed);
  slot.packed.store(Pack(arguments), std::memory_order_relaxed);
  slot.thread_id.store(CurrentThreadId(), std::memory_order_relaxed);
  slot.enter_ns.store(enter_ns, std::memory_order_relaxed);
  slot.version.store(2 * ticket, std::memory_order_release);
  return ticket;
}

void FlightReturn(uint64_t ticket, uint64_t return_ns, int32_t result) {
  if (ticket == 0) return;
  Slot& slot = g_slots[(ticket - 1) % g_capacity];
  // Lapped by 'capacity' later calls while this one ran: the slot is another call's now.
  if (slot.version.load(std::memory_order_acquire) != 2 * ticket) return;
  slot.return_ns.store(return_ns, std::memory_order_relaxed);
  slot.result.store(result, std::memory_order_relaxed);
  slot.returned_ticket.store(ticket, std::memory_order_release);
}

void FlightSetDeviceState(uint64_t ticket, FlightDeviceState state) {
  if (ticket == 0 || g_slots == nullptr) return;
  Slot& slot = g_slots[(ticket - 1) % g_capacity];
  const uint64_t wanted = ticket << 2 | static_cast<uint64_t>(state);
  uint64_t current = slot.device.load(std::memory_order_relaxed);
  // Only forward: an older call's word, or this call's earlier state, may be replaced.
  while ((current >> 2) < ticket || ((current >> 2) == ticket && (current & 3) < (wanted & 3))) {
    if (slot.device.compare_exchange_weak(current, wanted, std::memory_order_release,
                                          std::memory_order_relaxed)) {
      return;
    }
  }
}

void FlightStep(int64_t number, uint64_t start_ns, uint64_t end_ns) {
  if (!FlightOn()) return;
  const uint64_t ticket = g_step_head.fetch_add(1, std::memory_order_relaxed) + 1;
  StepSlot& slot = g_steps[(ticket - 1) % kFlightSteps];
  slot.version.store(2 * ticket - 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot.number.store(number, std::memory_order_relaxed);
  slot.start_ns.store(start_ns, std::memory_order_relaxed);
  slot.end_ns.store(end_ns, std::memory_order_relaxed);
  slot.version.store(2 * ticket, std::memory_order_release);
}

namespace {

// The boundary with `ticket`, false while it is being written or rewritten.
bool CopyStep(uint64_t ticket, FlightStepBoundary* step) {
  const StepSlot& slot = g_steps[(ticket - 1) % kFlightSteps];
  const uint64_t before = slot.version.load(std::memory_order_acquire);
  if (before != 2 * ticket) return false;
  *step = {slot.number.load(std::memory_order_relaxed),
           slot.start_ns.load(std::memory_order_relaxed),
           slot.end_ns.load(std::memory_order_relaxed)};
  std::atomic_thread_fence(std::memory_order_acquire);
  return slot.version.load(std::memory_order_relaxed) == before;
}

void CopySteps(FlightSnapshot* snapshot) {
  const uint64_t head = g_step_head.load(std::memory_order_acquire);
  snapshot->steps_total = head;
  const uint64_t first = head > kFlightSteps ? head - kFlightSteps + 1 : 1;
  FlightStepBoundary step;
  for (uint64_t ticket = first; ticket <= head; ++ticket) {
    if (CopyStep(ticket, &step)) snapshot->steps.push_back(step);
  }
}

}  // namespace

FlightSnapshot TakeFlightSnapshot() {
  FlightSnapshot snapshot;
  if (g_slots == nullptr) return snapshot;
  snapshot.capacity = g_capacity;
  const uint64_t head = g_head.load(std::memory_order_acquire);
  snapshot.calls_total = head;
  const uint64_t first = head > g_capacity ? head - g_capacity + 1 : 1;
  snapshot.overwritten = first - 1;
  snapshot.calls.reserve(head - first + 1);
  for (uint64_t ticket = first; ticket <= head; ++ticket) {
    FlightCall call;
    // A slot claimed but not yet filled, or lapped while copied, is counted, not shown.
    if (CopySlot(g_slots[(ticket - 1) % g_capacity], &call) && call.ticket == ticket) {
      snapshot.calls.push_back(call);
    } else {
      ++snapshot.torn;
    }
  }
  CopySteps(&snapshot);
  snapshot.host = TakeFlightHostSnapshot();
  return snapshot;
}

uint64_t FlightStepsAfter(uint64_t seen, std::vector<FlightStepBoundary>* steps) {
  const uint64_t head = g_step_head.load(std::memory_order_acquire);
  if (head <= seen) return seen;
  const uint64_t first = std::max(seen + 1, head > kFlightSteps ? head - kFlightSteps + 1 : 1);
  FlightStepBoundary step;
  for (uint64_t ticket = first; ticket <= head; ++ticket) {
    if (!CopyStep(ticket, &step)) return ticket - 1;
    steps->push_back(step);
  }
  return head;
}

bool OldestUnfinishedBefore(uint64_t before_ns, FlightCall* oldest) {
  if (g_slots == nullptr) return false;
  bool found = false;
  for (size_t index = 0; index < g_capacity; ++index) {
    const Slot& slot = g_slots[index];
    const uint64_t version = slot.version.load(std::memory_order_acquire);
    if (version == 0 || (version & 1)) continue;
    const uint64_t ticket = version / 2;
    if (slot.returned_ticket.load(std::memory_order_acquire) == ticket) {
      const FlightDeviceState device = DeviceStateOf(slot, ticket);
      if (device == FlightDeviceState::kUntracked || device == FlightDeviceState::kCompleted)
        continue;
    }
    FlightCall call;
    if (!CopySlot(slot, &call) || FlightCallFinished(call) || call.enter_ns >= before_ns) continue;
    if (!found || call.ticket < oldest->ticket) *oldest = call;
    found = true;
  }
  return found;
}

namespace internal {

uint64_t FlightClaimForTest() {
  if (g_slots == nullptr) return 0;
  const uint64_t ticket = g_head.fetch_add(1, std::memory_order_relaxed) + 1;
  return Claim(&g_slots[(ticket - 1) % g_capacity], ticket) ? ticket : 0;
}

}  // namespace internal

void ResetFlightAfterFork() {
  ResetFlightEventsAfterFork();
  if (g_slots == nullptr) return;
  for (size_t index = 0; index < g_capacity; ++index) {
    g_slots[index].version.store(0, std::memory_order_relaxed);
    // Tickets restart at 1: an old "returned" mark must not match a new call.
    g_slots[index].returned_ticket.store(0, std::memory_order_relaxed);
    g_slots[index].device.store(0, std::memory_order_relaxed);
  }
  for (StepSlot& slot : g_steps) slot.version.store(0, std::memory_order_relaxed);
  g_head.store(0, std::memory_order_relaxed);
  g_step_head.store(0, std::memory_order_relaxed);
}

}  // namespace prof
