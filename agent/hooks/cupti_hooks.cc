// cuptiSubscribe and cuptiUnsubscribe, interposed so libprof shares CUPTI with the
// program's own CUPTI clients (cupti/cupti_neighbours.h has the rules). libprof's own
// CUPTI calls go through the library it dlopened (cupti_library.h), never through these.
#include <cupti.h>

#include "agent/control/log.h"
#include "agent/cupti/cupti_neighbours.h"
#include "agent/hooks/hook_support.h"
#include "agent/hooks/symbol_resolver.h"

PROF_EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber,
                                       CUpti_CallbackFunc callback, void* userdata) {
  PROF_RESOLVE_REAL(cuptiSubscribe);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  prof::ErrnoPreserved keep;
  if (prof::RefuseForeignSubscriber()) {
    // torch's profiler, started by libprof's helper for CPU operators only: Kineto then
    // carries on CPU-only, as it does whenever another tool holds CUPTI.
    prof::Log(prof::LogLevel::kInfo,
              "torch's operator collection runs CPU-only: libprof "
              "keeps CUPTI for the kernels");
    return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  }
  if (!prof::ReleaseForForeignSubscriber()) {
    prof::Log(prof::LogLevel::kWarn,
              "another CUPTI client subscribes while libprof's writer "
              "did not release CUPTI within 2 s");
  }
  const CUptiResult result = real(subscriber, callback, userdata);
  if (result == CUPTI_SUCCESS && subscriber) prof::NoteForeignSubscribed(*subscriber);
  return result;
}

PROF_EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber) {
  PROF_RESOLVE_REAL(cuptiUnsubscribe);
  if (!real) return CUPTI_ERROR_NOT_INITIALIZED;
  const CUptiResult result = real(subscriber);
  if (result == CUPTI_SUCCESS) prof::NoteForeignUnsubscribed(subscriber);
  return result;
}
