// The Callback API: one subscriber per process, per-domain/per-cbid enable flags, and the
// enter/exit callbacks for runtime and driver API calls.
#ifndef PROF_TESTDATA_SIM_CUPTI_CALLBACK_DISPATCH_H_
#define PROF_TESTDATA_SIM_CUPTI_CALLBACK_DISPATCH_H_

#include <cupti_callbacks.h>

#include "testdata/sim/bridge/sim_bridge.h"

namespace simcupti {

CUptiResult Subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                      void* userdata);
CUptiResult Unsubscribe(CUpti_SubscriberHandle subscriber);
CUptiResult EnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                           CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
// domain == CUPTI_CB_DOMAIN_INVALID means every domain this CUPTI supports.
CUptiResult EnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
                         CUpti_CallbackDomain domain);
CUptiResult GetCallbackState(uint32_t* enable, CUpti_SubscriberHandle subscriber,
                             CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// Calls the subscriber for an API call, if it enabled that callback. Never holds a lock
// while the subscriber runs.
void DispatchApiCallback(CUpti_ApiCallbackSite site, SimApiCallEvent* event);

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_CALLBACK_DISPATCH_H_
