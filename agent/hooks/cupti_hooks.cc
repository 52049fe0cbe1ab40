// The CUPTI calls of the program's own CUPTI client (torch's Kineto), interposed so libprof
// shares CUPTI with it (cupti/cupti_neighbours.h has the rules): the Callback API goes
// through the subscription libprof owns (cupti/shared_subscription.h), the Activity API
// calls that begin and end a trace tell the writer when to let go of it and take it back.
// libprof's own CUPTI calls go through the library it dlopened (cupti_library.h), never
// through these. A handle CUPTI gave the program before libprof was loaded goes to CUPTI.
#include <cupti.h>

#include "agent/control/log.h"
#include "agent/cupti/buffer_routing.h"
#include "agent/cupti/cupti_neighbours.h"
#include "agent/cupti/shared_subscription.h"
#include "agent/hooks/hook_support.h"
#include "agent/hooks/symbol_resolver.h"

namespace {

// The Callback API of the CUPTI the program's call reaches.
prof::CallbackApi RealCallbackApi(const void* caller) {
  static prof::RealSymbol subscribe, unsubscribe, enable_callback, enable_domain;
  prof::CallbackApi api;
  api.subscribe = reinterpret_cast<decltype(api.subscribe)>(subscribe.For(caller, "cuptiSubscribe"));
  api.unsubscribe =
      reinterpret_cast<decltype(api.unsubscribe)>(unsubscribe.For(caller, "cuptiUnsubscribe"));
  api.enable_callback = reinterpret_cast<decltype(api.enable_callback)>(
      enable_callback.For(caller, "cuptiEnableCallback"));
  api.enable_domain = reinterpret_cast<decltype(api.enable_domain)>(
      enable_domain.For(caller, "cuptiEnableDomain"));
  return api;
}

void WarnNotReleased() {
  prof::Log(prof::LogLevel::kWarn,
            "the program's profiler starts a CUPTI trace while libprof's writer did not "
            "release CUPTI's activity API within 2 s");
}

// The program's trace begins (rule 6 of cupti_neighbours.h): CUPTI may still hold a buffer
// libprof gave it (CUDA 13.0 keeps one across a forced flush). A forced flush now hands it
// back before the program's records could go into it; CUPTI's next request is then served
// by the program (buffer_routing.h).
void HandBackHeldBuffer(const void* caller) {
  static prof::RealSymbol flush_symbol;
  const auto flush = reinterpret_cast<decltype(&cuptiActivityFlushAll)>(
      flush_symbol.For(caller, "cuptiActivityFlushAll"));
  if (flush) flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

}  // namespace

PROF_EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber,
                                       CUpti_CallbackFunc callback, void* userdata) {
  prof::ErrnoPreserved keep;
  const prof::CallbackApi api = RealCallbackApi(__builtin_return_address(0));
  if (!api.subscribe || !api.unsubscribe || !api.enable_callback || !api.enable_domain) {
    return CUPTI_ERROR_NOT_INITIALIZED;
  }
  return prof::SharedSubscribe(prof::Party::kProgram, api, subscriber, callback, userdata);
}

PROF_EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber) {
  if (prof::IsSharedHandle(prof::Party::kProgram, subscriber)) {
    return prof::SharedUnsubscribe(prof::Party::kProgram, subscriber);
  }
  PROF_RESOLVE_REAL(cuptiUnsubscribe);
  return real ? real(subscriber) : CUPTI_ERROR_NOT_INITIALIZED;
}

PROF_EXPORT CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                            CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (prof::IsSharedHandle(prof::Party::kProgram, subscriber)) {
    return prof::SharedEnableCallback(prof::Party::kProgram, enable, subscriber, domain, cbid);
  }
  PROF_RESOLVE_REAL(cuptiEnableCallback);
  return real ? real(enable, subscriber, domain, cbid) : CUPTI_ERROR_NOT_INITIALIZED;
}

PROF_EXPORT CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                          CUpti_CallbackDomain domain) {
  if (prof::IsSharedHandle(prof::Party::kProgram, subscriber)) {
    if (domain == CUPTI_CB_DOMAIN_INVALID) return CUPTI_ERROR_INVALID_PARAMETER;
    return prof::SharedEnableDomain(prof::Party::kProgram, enable, subscriber, domain);
  }
  PROF_RESOLVE_REAL(cuptiEnableDomain);
  return real ? real(enable, subscriber, domain) : CUPTI_ERROR_NOT_INITIALIZED;
}

PROF_EXPORT CUptiResult cuptiEnableAllDomains(uint32_t enable, CUpti_SubscriberHandle subscriber) {
  if (prof::IsSharedHandle(prof::Party::kProgram, subscriber)) {
    return prof::SharedEnableDomain(prof::Party::kProgram, enable, subscriber,
                                    CUPTI_CB_DOMAIN_INVALID);
  }
  PROF_RESOLVE_REAL(cuptiEnableAllDomains);
  return real ? real(enable, subscriber) : CUPTI_ERROR_NOT_INITIALIZED;
}

PROF_EXPORT CUptiResult cuptiGetCallbackState(uint32_t* enable, CUpti_SubscriberHandle subscriber,
                                              CUpti_CallbackDomain domain,
                                              CUpti_CallbackId cbid) {
  if (prof::IsSharedHandle(prof::Party::kProgram, subscriber)) {
    return prof::SharedGetCallbackState(prof::Party::kProgram, enable, subscriber, domain, cbid);
  }
  PROF_RESOLVE_REAL(cuptiGetCallbackState);
  return real ? real(enable, subscriber, domain, cbid) : CUPTI_ERROR_NOT_INITIALIZED;
}

PROF_EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                                                       CUpti_BuffersCallbackCompleteFunc completed) {
  PROF_RESOLVE_REAL(cuptiActivityRegisterCallbacks);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  prof::ErrnoPreserved keep;
  bool in_time = true;
  if (prof::ForeignRegisters(requested, completed, &in_time) == prof::ForeignCall::kDefer) {
    return CUPTI_SUCCESS;  // registered when the program's trace begins
  }
  if (!in_time) WarnNotReleased();
  if (!requested || !completed) return real(requested, completed);  // CUPTI's own answer
  const CUptiResult result = real(&prof::RoutedBufferRequested, &prof::RoutedBufferCompleted);
  if (result == CUPTI_SUCCESS) HandBackHeldBuffer(__builtin_return_address(0));
  return result;
}

PROF_EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
  PROF_RESOLVE_REAL(cuptiActivityEnable);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  prof::ErrnoPreserved keep;
  prof::ForeignTraceBegin begin;
  if (prof::ForeignEnables(kind, &begin) == prof::ForeignCall::kDefer) return CUPTI_SUCCESS;
  if (begin.began) {  // the program's trace begins: its callbacks, then the kinds that waited
    if (!begin.in_time) WarnNotReleased();
    static prof::RealSymbol register_symbol;
    const auto register_callbacks = reinterpret_cast<decltype(&cuptiActivityRegisterCallbacks)>(
        register_symbol.For(__builtin_return_address(0), "cuptiActivityRegisterCallbacks"));
    if (register_callbacks && begin.requested && begin.completed) {
      register_callbacks(&prof::RoutedBufferRequested, &prof::RoutedBufferCompleted);  // rule 6
      HandBackHeldBuffer(__builtin_return_address(0));
    }
    for (uint32_t each = 0; each < 63; ++each) {
      const auto waited = static_cast<CUpti_ActivityKind>(each);
      if ((begin.waiting_kinds >> each & 1) && real(waited) == CUPTI_SUCCESS) {
        prof::NoteForeignKind(waited, true);
      }
    }
  }
  const CUptiResult result = real(kind);
  if (result == CUPTI_SUCCESS) prof::NoteForeignKind(kind, true);
  return result;
}

PROF_EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
  PROF_RESOLVE_REAL(cuptiActivityDisable);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  if (!prof::ForeignDisables(kind)) return CUPTI_SUCCESS;  // one that waited, or libprof's
  const CUptiResult result = real(kind);
  if (result == CUPTI_SUCCESS) prof::NoteForeignKind(kind, false);
  return result;
}

// Kineto with TEARDOWN_CUPTI=1 finalizes CUPTI after each trace; while libprof records
// (or waits to) that would end its subscription and buffers, so it is skipped then: the
// program's own subscription is already gone (it unsubscribes first).
PROF_EXPORT CUptiResult cuptiFinalize(void) {
  PROF_RESOLVE_REAL(cuptiFinalize);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  if (prof::AgentNeedsCupti()) {
    prof::Log(prof::LogLevel::kInfo,
              "the program's cuptiFinalize is skipped while libprof records device activity");
    return CUPTI_SUCCESS;
  }
  return real();
}

PROF_EXPORT CUptiResult cuptiActivityFlushAll(uint32_t flag) {
  PROF_RESOLVE_REAL(cuptiActivityFlushAll);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  const CUptiResult result = real(flag);
  prof::ErrnoPreserved keep;
  prof::AfterForeignFlush();
  return result;
}
