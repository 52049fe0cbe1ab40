// Sharing CUPTI with the program's own CUPTI client (torch.profiler's Kineto, the program's
// own CUPTI code). What Kineto does (libkineto init.cpp, CuptiActivityApi.cpp; torch's
// kineto_shim.cpp): it subscribes to CUPTI the first time torch prepares any profiler,
// keeps that subscription to the process's end (cuptiUnsubscribe only with
// TEARDOWN_CUPTI=1), and is CPU-only for the life of the process when that subscription
// fails; each trace registers its activity buffer callbacks, enables its kinds, and at its
// end disables them, then flushes while CUPTI holds a buffer of its. CUPTI allows one
// subscriber and one set of buffer callbacks per process, so:
//  1. Callback API: libprof owns the one real subscription and hands the program a handle
//     of its own (shared_subscription.h); each side gets the callbacks it enabled. Kineto
//     initializes normally, whoever comes first, and stays able to trace CUDA later.
//  2. Activity API: the program's profiler wins while its trace runs, from its first
//     device kind enabled (kernels, copies, memsets, syncs) to its flush with none of its
//     kinds enabled (or 1 s after its last disable, for a client that never flushes).
//     While libprof records, the program's buffer callbacks and host-side kinds (RUNTIME,
//     DRIVER, EXTERNAL_CORRELATION: torch counts them as CPU activity, so libprof's own
//     CPU-only operator collection asks for them) wait, answered CUPTI_SUCCESS, for such a
//     trace to begin; a collection that never traces the device takes nothing from libprof.
//     When the trace begins while libprof holds the activity API, the interposer first has
//     the writer release it (flush and drain libprof's records, disable its kinds,
//     unsubscribe its callbacks), waiting at most 2 s, then registers the program's
//     callbacks and enables the kinds that waited. libprof records host activity only
//     meanwhile, says so in one line, and counts a DEVICE_TRACING_PAUSED loss.
//  3. When that trace ends, the writer takes the activity API back (a forced flush first,
//     so the program's last buffers reach the program); the program's flush waits for it,
//     at most 2 s, while a window waits, so its next kernels are libprof's.
//  4. A subscription CUPTI refuses (another tool, Nsight, holds CUPTI outside the process's
//     symbols): libprof records host activity only, one line.
//  5. The program's cuptiFinalize (Kineto's TEARDOWN_CUPTI=1) is skipped while libprof
//     holds the activity API or waits for it.
//  6. Buffers: CUPTI keeps one pair of buffer callbacks, and on CUDA 13.0 (H200) a forced
//     flush left it holding a buffer of the client registered then, which a client that
//     registered later got back through its own callback (Kineto drops an unknown buffer:
//     325 of 575 kernels). So CUPTI only ever has libprof's routing pair
//     (buffer_routing.h), registered in place of the program's: a buffer goes back to
//     whoever gave it, its records to whoever holds the activity API when it completes.
//
// Thread safety: the program-thread side (interposers) and the writer-thread side
// (CuptiSource) meet only in the atomics of cupti_neighbours.cc. The interposer's waits
// poll an atomic; they hold no lock of the agent, and the writer takes none of the
// program's. Fork: a child starts with libprof holding nothing (ResetNeighboursAfterFork);
// libprof never uses CUPTI there (fork_guard.h). Signals: none of this runs in a signal handler.
#ifndef PROF_AGENT_CUPTI_CUPTI_NEIGHBOURS_H_
#define PROF_AGENT_CUPTI_CUPTI_NEIGHBOURS_H_

#include <cupti.h>

#include <cstdint>

namespace prof {

// --- program threads: the interposed Activity API calls (hooks/cupti_hooks.cc).
enum class ForeignCall {
  kPass,   // the call goes to CUPTI
  kDefer,  // answered CUPTI_SUCCESS now; it reaches CUPTI when the program's trace begins
};
// The program's cuptiActivityRegisterCallbacks: kept, and passed on unless libprof records
// and the program's trace has not begun. `*in_time`: false when the writer did not
// release the activity API within 2 s.
ForeignCall ForeignRegisters(CUpti_BuffersCallbackRequestFunc requested,
                             CUpti_BuffersCallbackCompleteFunc completed, bool* in_time);
// What the program's trace begun by an enable needs from the caller, before that enable:
// its callbacks registered (null: it never registered any) and the kinds that waited
// enabled (bit per kind; NoteForeignKind for each).
struct ForeignTraceBegin {
  bool began = false;
  bool in_time = true;
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  uint64_t waiting_kinds = 0;
};
// The program's cuptiActivityEnable: a host-side kind waits while libprof records and no
// trace of the program runs; otherwise it passes, and begins the trace if none runs.
ForeignCall ForeignEnables(CUpti_ActivityKind kind, ForeignTraceBegin* begin);
// After the program's cuptiActivityEnable / cuptiActivityDisable succeeded in CUPTI.
void NoteForeignKind(CUpti_ActivityKind kind, bool enabled);
// The program's cuptiActivityDisable: whether it goes to CUPTI. Not for a kind that waited
// (it is forgotten), nor for one it never enabled while libprof holds the activity API
// (that kind is libprof's).
bool ForeignDisables(CUpti_ActivityKind kind);
// After the program's cuptiActivityFlushAll: with none of its kinds enabled, its trace
// ended (rule 3).
void AfterForeignFlush();
// Whether the program's cuptiFinalize (Kineto's TEARDOWN_CUPTI=1) would tear down CUPTI
// under libprof: while libprof holds the activity API or waits for it, it is skipped.
bool AgentNeedsCupti();

// --- CUPTI's buffer callbacks (buffer_routing.h), on any thread.
// Whether the records CUPTI stores now are the program's: its trace runs and libprof does
// not hold the activity API. Then `*requested` and `*completed` are its callbacks.
bool ProgramTakesRecords(CUpti_BuffersCallbackRequestFunc* requested,
                         CUpti_BuffersCallbackCompleteFunc* completed);
// The program's completion callback (null: it registered none).
CUpti_BuffersCallbackCompleteFunc ProgramBufferCompleted();
// Whether libprof holds the activity API: the records CUPTI stores now are libprof's.
bool AgentTakesRecords();

// --- writer thread: CuptiSource.
// Whether the program's trace runs (ends it 1 s after its last disable without a flush).
bool ForeignTraceRuns();
// Whether a release was asked for since the last acknowledgment.
bool ReleaseRequested();
// libprof's activity API: taken (true) or released (false). Releasing acknowledges every
// release asked so far; taking acknowledges every take-back.
void NoteAgentHoldsCupti(bool holds);
// A window waits for the activity API (paused): the program's flush waits for the
// take-back only then. false also acknowledges the take-backs (the window ended).
void NoteAgentWaits(bool waits);

// In a forked child (fork_guard.cc): libprof holds nothing and waits for nothing there, so
// the program's CUPTI calls never wait for a writer the child does not have.
void ResetNeighboursAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_NEIGHBOURS_H_
