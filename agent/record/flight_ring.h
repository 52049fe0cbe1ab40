// The flight recorder's memory (PROF_FLIGHT=1): every NCCL call of the process, whatever
// the recording state, in one bounded ring that overwrites the oldest entry, plus the last
// step boundaries. Nothing here writes a file; the writer thread snapshots the ring when a
// dump is due (writer/flight_dump.h).
//
// Hot path (a hook, on the program's thread): FlightEnter takes the next ticket with one
// relaxed fetch_add on the ring's head, claims its slot with one compare-exchange on the
// slot's version and fills it; FlightReturn marks the same slot
// returned unless the ring lapped it meanwhile. No lock, allocation or system call (the
// thread id is cached by the record layer from the thread's first record).
//
// Concurrency: each slot is a seqlock with one writer at a time. Its writer (the claiming
// thread) makes `version` odd by compare-exchange, stores the fields (relaxed atomics),
// then stores the even version with release. A claim fails, and the call is not kept
// (counted torn), when the slot is still odd: its older writer was lapped mid-write.
// The reader (the writer thread) copies a slot between two acquire loads of `version` and
// drops the copy when they differ (counted as torn). The return is published separately:
// `returned_ticket` equal to the slot's ticket means returned, so a late return of a call
// whose slot was reused can never mark the new call returned (its ticket differs).
//
// What "returned" means: the host call came back (with its ncclResult_t). Real NCCL
// returns once the work is enqueued, so a collective whose kernel never finishes looks
// returned. Its GPU side is followed with two CUDA events recorded on the call's stream
// around it (flight_events.h, as PyTorch's Flight Recorder does): the slot's device state
// (FlightDeviceState, tagged with the ticket like the return) goes enqueued -> started ->
// completed as the writer thread sees them complete. A call without events (the runtime
// has no event functions, the pool ran dry, the event not recordable on its stream)
// stays kUntracked and counts as completed once returned: the host's view, as before.
//
// Memory: PROF_FLIGHT_ENTRIES slots of 128 bytes (default 8192: 1 MiB per process), plus
// kFlightSteps step slots (4 KiB), allocated once when the agent is configured.
#ifndef PROF_AGENT_RECORD_FLIGHT_RING_H_
#define PROF_AGENT_RECORD_FLIGHT_RING_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "agent/record/flight_host.h"

namespace prof {

constexpr size_t kFlightSteps = 128;  // step boundaries kept: 2.5 PROF_FLIGHT_HANG_S of
                                      // 1 s steps is rarely more than a few dozen

// What a hook knows when an NCCL call enters.
struct FlightCallArguments {
  const void* comm = nullptr;
  int64_t sequence = 0;  // per communicator (nccl_registry.h); 0: unknown communicator
  uint64_t bytes = 0;
  uint64_t count = 0;
  uint64_t stream = 0;
  int32_t root_or_peer = -1;
  int16_t reduction = -1;
  uint16_t operation = 0;  // schema::NcclOperation
  uint8_t data_type = 0;
};

// How far the GPU got with a call's work, as its CUDA events tell (flight_events.h).
enum class FlightDeviceState : uint8_t {
  kUntracked = 0,  // no events: only the host's view (returned = done)
  kEnqueued = 1,   // events recorded; the one before the call not complete yet
  kStarted = 2,    // the work before it on the stream is done; the one after is not
  kCompleted = 3,  // the event after the call completed
};

// A consistent copy of one call (writer thread).
struct FlightCall {
  uint64_t ticket = 0;  // 1-based: the call's place among all NCCL calls of the process
  FlightCallArguments arguments;
  uint64_t thread_id = 0;
  uint64_t enter_ns = 0;
  uint64_t return_ns = 0;  // valid when returned
  int32_t result = 0;      // ncclResult_t, when returned
  bool returned = false;
  FlightDeviceState device = FlightDeviceState::kUntracked;
};

// Whether the call is over as far as the agent can know: returned, and, when its GPU work
// is followed, completed there. An unfinished call is what the hang check waits on.
inline bool FlightCallFinished(const FlightCall& call) {
  return call.returned && (call.device == FlightDeviceState::kUntracked ||
                           call.device == FlightDeviceState::kCompleted);
}

struct FlightStepBoundary {
  int64_t number = 0;  // the step that ended
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

struct FlightSnapshot {
  std::vector<FlightCall> calls;          // oldest first
  std::vector<FlightStepBoundary> steps;  // oldest first
  uint64_t calls_total = 0;               // every call ever entered
  uint64_t overwritten = 0;               // calls the ring no longer holds (oldest first)
  uint64_t torn = 0;                      // slots being rewritten while copied (not in `calls`)
  uint64_t steps_total = 0;
  size_t capacity = 0;
  FlightHostSnapshot host;  // every thread's last CUDA calls and ranges (flight_host.h)
};

namespace internal {
extern std::atomic<bool> g_flight_on;
}  // namespace internal

// Whether PROF_FLIGHT=1 configured the ring (one relaxed load).
inline bool FlightOn() { return internal::g_flight_on.load(std::memory_order_relaxed); }

// Once, before any hook runs (the library constructor): allocates `entries` slots (a
// power of two is not needed) and turns the recorder on. 0 entries: off.
void ConfigureFlight(size_t entries);

// Hot path. Returns the call's ticket for FlightReturn (0 when the recorder is off).
uint64_t FlightEnter(const FlightCallArguments& arguments, uint64_t enter_ns);
void FlightReturn(uint64_t ticket, uint64_t return_ns, int32_t result);
// The call's GPU-side state (hot path: kEnqueued once its events are recorded; the writer
// thread: kStarted, kCompleted). Ignored once the ring lapped the call, and never moves a
// state back (a late kEnqueued cannot undo the writer's kCompleted).
void FlightSetDeviceState(uint64_t ticket, FlightDeviceState state);

// A step boundary (the step controller, on the program's thread): step `number` ran from
// `start_ns` to `end_ns`. Lock-free like FlightEnter.
void FlightStep(int64_t number, uint64_t start_ns, uint64_t end_ns);

// Writer thread: a copy of what the ring holds now.
FlightSnapshot TakeFlightSnapshot();

// Writer thread: the step boundaries marked after the first `seen` (a count of boundaries,
// 0 at first) into `steps`, oldest first; returns the new count to pass next time. Stops
// at a boundary still being written (it is read next time); boundaries the ring lapped
// meanwhile are skipped. One load when nothing is new: the slow-step check's cost.
uint64_t FlightStepsAfter(uint64_t seen, std::vector<FlightStepBoundary>* steps);

// Writer thread: the oldest unfinished call (FlightCallFinished), entered before
// `before_ns` (false when none): the hang check, a scan of the slots without copying them
// all.
bool OldestUnfinishedBefore(uint64_t before_ns, FlightCall* call);

namespace internal {
// Tests only: takes the next ticket and claims its slot without ever filling it, as a
// writer stopped between claim and publish would (0 when the claim failed).
uint64_t FlightClaimForTest();
}  // namespace internal

// In a forked child (atfork handler; atomics only): the parent's calls are not the
// child's, so the ring starts empty.
void ResetFlightAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_FLIGHT_RING_H_
