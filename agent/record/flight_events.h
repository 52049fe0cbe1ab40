// The GPU side of the flight recorder (PROF_FLIGHT=1): real NCCL returns once a
// collective's work is enqueued, so "returned" says nothing of its kernel. As PyTorch's
// Flight Recorder does, each collective gets two CUDA events recorded on its stream, one
// before the call ("started" once the work ahead of it on the stream is done) and one
// after ("completed"); the writer thread polls them with cudaEventQuery, which never
// blocks, and moves the call's ring slot (flight_ring.h) from enqueued to started to
// completed. A call whose kernel never finishes then stays unfinished and the hang check
// (writer/flight_monitor.h) fires for it.
//
// Events come from a fixed pool of kFlightEventPairs pairs (cudaEventDisableTiming), each
// created on first use by the program's thread that claims it (on that thread's current
// device), handed back by the writer once the call completed. A call gets no events, and
// keeps the host-only view, when the pool is empty, when an event cannot be created or
// recorded (another device's stream), or when the runtime has no event functions; each
// is counted (FlightEventsUntracked), shown in the dump's header. (A call inside an NCCL
// group has its second event recorded after the group's end: hooks/flight_event_hooks.h.)
//
// The runtime's functions come in through SetFlightEventFunctions (hooks/flight_event_hooks.h
// resolves them like any hook's real function), so this file knows no CUDA header and its
// tests drive it with fakes. Threads: Begin/End on the program's threads (lock-free: one
// compare-exchange to claim a pair, two event records), Poll on the writer thread only.
#ifndef PROF_AGENT_RECORD_FLIGHT_EVENTS_H_
#define PROF_AGENT_RECORD_FLIGHT_EVENTS_H_

#include <cstddef>
#include <cstdint>

namespace prof {

constexpr size_t kFlightEventPairs = 256;  // collectives followed at once: a step's worth

// The runtime's event functions with cudaError_t as int (0: cudaSuccess) and opaque
// handles. query returns kFlightEventNotReady (cudaErrorNotReady) while pending.
struct FlightEventFunctions {
  int (*create)(void** event, unsigned flags) = nullptr;  // cudaEventCreateWithFlags
  int (*record)(void* event, void* stream) = nullptr;     // cudaEventRecord
  int (*query)(void* event) = nullptr;                    // cudaEventQuery
};
constexpr int kFlightEventNotReady = 600;     // cudaErrorNotReady
constexpr unsigned kFlightEventFlags = 0x02;  // cudaEventDisableTiming

// Once, from whichever thread resolved them first; all three non-null. The pool's events
// live as long as the process (a few hundred handles), so none is ever destroyed.
void SetFlightEventFunctions(const FlightEventFunctions& functions);
bool FlightEventsAvailable();

// Program's thread, around one NCCL call of ring ticket `ticket` on `stream`:
// Begin claims a pair and records its first event (0: not followed, counted); End records
// the second and hands the pair to the writer. `pair` is Begin's result.
uint32_t FlightEventsBegin(uint64_t ticket, void* stream);
void FlightEventsEnd(uint32_t pair, uint64_t ticket, void* stream);
// A call that was not followed for a reason found outside this file.
void FlightEventsCountUntracked();
// Begin's pair given back without its second event (it cannot be recorded where it
// belongs): the call keeps the host's view (marked completed) and is counted.
void FlightEventsAbandon(uint32_t pair, uint64_t ticket);

// Writer thread: queries every pair handed over, advances its call's state, frees the
// pairs whose call completed. Returns how many pairs are still pending.
size_t PollFlightEvents();

// Calls that got no events since start (or the last fork).
uint64_t FlightEventsUntracked();

// Forked child (atomics only): the parent's events are not the child's; the pool starts
// empty and unavailable (CUDA does not survive fork).
void ResetFlightEventsAfterFork();

namespace internal {
// Tests only: forget the functions and every pair (events are not destroyed).
void ResetFlightEventsForTest();
}  // namespace internal

}  // namespace prof

#endif  // PROF_AGENT_RECORD_FLIGHT_EVENTS_H_
