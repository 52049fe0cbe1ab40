// CUPTI's Callback API shared by libprof and one CUPTI client of the program (torch's
// Kineto). CUPTI allows one subscriber per process, and Kineto subscribes the first time
// torch prepares any profiler and keeps that subscription to the process's end; so the
// agent owns the one real subscription, and each party (libprof's CuptiSource, the program
// through the interposers of hooks/cupti_hooks.cc) gets a handle of its own. The real
// subscription's callback hands each API call to the parties that enabled its id, and
// only to them; the real ids enabled are the union of the parties'. The real subscription
// exists while either party is subscribed (none: CUPTI unsubscribed, nothing to pay).
//
// Thread safety: every function but the dispatch may be called from any thread; they
// serialize on one mutex (these are control calls: subscribe, enable; never on a launch).
// The dispatch (on application threads, inside CUPTI's callback) reads atomics only and
// never blocks, so a party may call these functions from its own callback (Kineto's
// TEARDOWN_CUPTI unsubscribes there). Fork: the state is the parent's; libprof never uses
// CUPTI in a child (fork_guard.h).
#ifndef PROF_AGENT_CUPTI_SHARED_SUBSCRIPTION_H_
#define PROF_AGENT_CUPTI_SHARED_SUBSCRIPTION_H_

#include <cupti.h>

namespace prof {

enum class Party { kAgent = 0, kProgram = 1 };

// The Callback API entry points of the CUPTI a party reached. The real subscription uses
// those of the party that made it until it ends.
struct CallbackApi {
  decltype(&::cuptiSubscribe) subscribe = nullptr;
  decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
  decltype(&::cuptiEnableCallback) enable_callback = nullptr;
  decltype(&::cuptiEnableDomain) enable_domain = nullptr;
};

// CUPTI's own answers where CUPTI would give them: a second subscription of one party is
// CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, a handle that is not the party's is
// CUPTI_ERROR_INVALID_PARAMETER, and a failed real call returns its result.
CUptiResult SharedSubscribe(Party party, const CallbackApi& api, CUpti_SubscriberHandle* handle,
                            CUpti_CallbackFunc callback, void* userdata);
CUptiResult SharedUnsubscribe(Party party, CUpti_SubscriberHandle handle);
CUptiResult SharedEnableCallback(Party party, uint32_t enable, CUpti_SubscriberHandle handle,
                                 CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
// `domain` CUPTI_CB_DOMAIN_INVALID: every domain (cuptiEnableAllDomains).
CUptiResult SharedEnableDomain(Party party, uint32_t enable, CUpti_SubscriberHandle handle,
                               CUpti_CallbackDomain domain);
CUptiResult SharedGetCallbackState(Party party, uint32_t* enable, CUpti_SubscriberHandle handle,
                                   CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// A party that reached another copy of CUPTI than the real subscription's (two libcupti
// files in one process) subscribes to its copy directly and keeps that copy's handle:
// there is no one-subscriber rule to share between copies.
//
// Whether `handle` is one SharedSubscribe gave `party` (a handle CUPTI gave the program
// before libprof was loaded is not).
bool IsSharedHandle(Party party, CUpti_SubscriberHandle handle);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_SHARED_SUBSCRIPTION_H_
