// The Callback API: one subscriber per process, per-domain/per-cbid enable flags, and the
// enter/exit callbacks for runtime and driver API calls.
#ifndef PROF_TESTDATA_SIM_CUPTI_CALLBACK_DISPATCH_H_
#define PROF_TESTDATA_SIM_CUPTI_CALLBACK_DISPATCH_H_

#include <cupti_callbacks.h>
#include <stddef.h>
#include <stdint.h>

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

// Test-only queries (sim_cupti_test_api.h): the ids of `domain` enabled now (ascending,
// the first `capacity` copied into `ids`; returns the count), and the callbacks delivered.
size_t EnabledCallbackIds(CUpti_CallbackDomain domain, uint32_t* ids, size_t capacity);
uint64_t DeliveredCallbacks();

// Calls the subscriber for an API call, if it enabled that callback. Never holds a lock
// while the subscriber runs.
void DispatchApiCallback(CUpti_ApiCallbackSite site, SimApiCallEvent* event);

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_CALLBACK_DISPATCH_H_
