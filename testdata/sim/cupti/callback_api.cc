// The exported Callback API (subscription and enable flags).
#include <cupti_callbacks.h>

#include "testdata/sim/cupti/callback_dispatch.h"
#include "testdata/sim/cupti/export.h"
#include "testdata/sim/cupti/runtime_link.h"

SIM_CUPTI_EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber,
                                            CUpti_CallbackFunc callback, void* userdata) {
  simcupti::EnsureAttachedToRuntime();
  return simcupti::Subscribe(subscriber, callback, userdata);
}

SIM_CUPTI_EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber) {
  return simcupti::Unsubscribe(subscriber);
}

SIM_CUPTI_EXPORT CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                                 CUpti_CallbackDomain domain,
                                                 CUpti_CallbackId cbid) {
  simcupti::EnsureAttachedToRuntime();
  return simcupti::EnableCallback(enable, subscriber, domain, cbid);
}

SIM_CUPTI_EXPORT CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                               CUpti_CallbackDomain domain) {
  if (domain == CUPTI_CB_DOMAIN_INVALID) return CUPTI_ERROR_INVALID_PARAMETER;
  simcupti::EnsureAttachedToRuntime();
  return simcupti::EnableDomain(enable, subscriber, domain);
}

SIM_CUPTI_EXPORT CUptiResult cuptiEnableAllDomains(uint32_t enable,
                                                   CUpti_SubscriberHandle subscriber) {
  simcupti::EnsureAttachedToRuntime();
  return simcupti::EnableDomain(enable, subscriber, CUPTI_CB_DOMAIN_INVALID);
}

SIM_CUPTI_EXPORT CUptiResult cuptiGetCallbackState(uint32_t* enable,
                                                   CUpti_SubscriberHandle subscriber,
                                                   CUpti_CallbackDomain domain,
                                                   CUpti_CallbackId cbid) {
  return simcupti::GetCallbackState(enable, subscriber, domain, cbid);
}
