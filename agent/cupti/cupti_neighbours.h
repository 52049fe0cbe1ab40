// Sharing CUPTI with the program's own CUPTI clients (torch.profiler's Kineto, the
// program's own CUPTI code). CUPTI allows one subscriber per process and one set of
// activity-buffer callbacks, so two clients cannot both record. libprof interposes
// cuptiSubscribe and cuptiUnsubscribe (hooks/cupti_hooks.cc) to know when another client
// takes CUPTI and gives it back, and applies these rules:
//  1. The program's profiler always wins: when it subscribes while libprof holds CUPTI, the
//     interposer first has the writer thread release CUPTI (flush and drain what is
//     recorded, disable the activity kinds, unsubscribe), waiting at most 2 s, then lets
//     the subscription through. libprof records host activity only meanwhile, says so in
//     one line, and counts a DEVICE_TRACING_PAUSED loss in the window.
//  2. When another client holds CUPTI as libprof's device activity is turned on, libprof
//     waits for it the same way (host tracing goes on, one line).
//  3. When that client unsubscribes, the writer takes CUPTI back at its next pass.
//  4. Except while libprof's own Python helper starts torch's CPU-only operator collection
//     (prof_refuse_cupti_subscribers): Kineto then subscribes only because CUDA is present;
//     it is refused as if another tool held CUPTI, and Kineto carries on CPU-only (its
//     designed fallback), leaving CUPTI to libprof.
//
// Thread safety: the program-thread side (interposers, C API) and the writer-thread side
// (CuptiSource) meet only in the atomics of cupti_neighbours.cc. The interposer's wait
// polls an atomic; it holds no lock of the agent, and the writer takes none of the
// program's. Fork: a child starts with the parent's flags; CUPTI is never used there
// (fork_guard.h). Signals: none of this runs in a signal handler.
#ifndef PROF_AGENT_CUPTI_CUPTI_NEIGHBOURS_H_
#define PROF_AGENT_CUPTI_CUPTI_NEIGHBOURS_H_

#include <cstdint>

namespace prof {

// --- program threads: the interposed cuptiSubscribe / cuptiUnsubscribe, the C API.
// Whether a subscription by the program is refused now (rule 4).
// Returns true when it is, and counts the refusal.
bool RefuseForeignSubscriber();
void SetRefuseForeignSubscribers(bool refuse);
uint64_t ForeignSubscribersRefused();
// Before the program's cuptiSubscribe: has the writer release CUPTI if libprof holds it
// (rule 1), waiting at most 2 s. Returns false when the writer did not answer in time.
bool ReleaseForForeignSubscriber();
// After the program's cuptiSubscribe / cuptiUnsubscribe succeeded.
void NoteForeignSubscribed(const void* subscriber);
void NoteForeignUnsubscribed(const void* subscriber);

// --- writer thread: CuptiSource.
bool ForeignSubscriberHolds();
// Whether a release was asked for since the last acknowledgment.
bool ReleaseRequested();
// libprof's own subscription: taken (true) or released (false). Releasing acknowledges
// every request made so far.
void NoteAgentHoldsCupti(bool holds);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_NEIGHBOURS_H_
