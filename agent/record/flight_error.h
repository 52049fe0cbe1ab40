// The flight recorder's "an NCCL call failed" latch (PROF_FLIGHT=1): the hook that sees an
// ncclSystemError or ncclRemoteError (a timed-out or dead peer) notes it here, on the
// program's thread, and the writer thread dumps once per process (flight_monitor.h).
// A failing rank usually exits right after (the program checks the result and leaves), so
// the writer also looks at the latch on its last pass at exit.
//
// Thread-safety: the first failure wins through one compare-exchange; later ones, from any
// thread, change nothing. No lock or allocation on the program's thread; the one doorbell
// ring (a futex wake at most) happens once per process, on a failing call.
#ifndef PROF_AGENT_RECORD_FLIGHT_ERROR_H_
#define PROF_AGENT_RECORD_FLIGHT_ERROR_H_

#include <cstdint>

namespace prof {

// Whether `result` (an ncclResult_t) is a failure worth a dump: a peer or the system, not
// the program's own misuse (ncclInvalidArgument, ncclInvalidUsage) nor ncclInProgress.
inline bool FlightDumpWorthyError(int32_t result) {
  return result == 2 /* ncclSystemError */ || result == 6 /* ncclRemoteError */;
}

// Program's thread: the call with `ticket` (FlightEnter) returned `result`. Rings the
// writer's doorbell the first time.
void NoteFlightError(int32_t result, uint64_t ticket);

// Writer thread: the first failure noted and not yet taken (false when none). Each
// failure is taken once.
bool TakeFlightError(int32_t* result, uint64_t* ticket);

// "ncclSystemError", "ncclRemoteError", ... (the names of nccl.h).
const char* NcclResultName(int32_t result);

// In a forked child: the parent's failure is not the child's.
void ResetFlightErrorAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_FLIGHT_ERROR_H_
