// Test-only entry points of the simulated libcupti.so.13 (no real CUPTI has them): what a
// subscriber enabled, how many callbacks it was given, and API calls that the simulated
// runtime never makes (cuLaunchKernelEx, cuPointerGetAttribute, ...), dispatched to the
// subscriber exactly as the runtime's own calls are. Tests that dlopen the simulated CUPTI
// look these up with dlsym (kSim*Symbol); tests that link it call them directly.
//
// Thread safety: all three may be called from any thread.
#ifndef PROF_TESTDATA_SIM_CUPTI_SIM_CUPTI_TEST_API_H_
#define PROF_TESTDATA_SIM_CUPTI_SIM_CUPTI_TEST_API_H_

#include <cupti_callbacks.h>
#include <stddef.h>
#include <stdint.h>

extern "C" {

// Copies the callback ids of `domain` the subscriber has enabled now, ascending, into
// `ids` (up to `capacity`); returns how many are enabled (0 when nobody is subscribed:
// cuptiUnsubscribe disables everything, as the real CUPTI does).
size_t simCuptiEnabledCallbackIds(CUpti_CallbackDomain domain, uint32_t* ids, size_t capacity);
typedef size_t (*SimCuptiEnabledCallbackIdsFn)(CUpti_CallbackDomain, uint32_t*, size_t);

// Callbacks (enter and exit each count one) handed to a subscriber since the process began.
uint64_t simCuptiDeliveredCallbacks(void);
typedef uint64_t (*SimCuptiDeliveredCallbacksFn)(void);

// An API call of `domain`/`cbid` named `function_name` on the calling thread: enter, then
// exit with return value 0, dispatched only if the subscriber enabled that id. No device
// work, no activity record. Returns its correlation id (from a range the runtime never
// reaches, 0x40000000 up).
uint32_t simCuptiFakeApiCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                             const char* function_name);
typedef uint32_t (*SimCuptiFakeApiCallFn)(CUpti_CallbackDomain, CUpti_CallbackId, const char*);

}  // extern "C"

#define SIM_CUPTI_ENABLED_CALLBACK_IDS_SYMBOL "simCuptiEnabledCallbackIds"
#define SIM_CUPTI_DELIVERED_CALLBACKS_SYMBOL "simCuptiDeliveredCallbacks"
#define SIM_CUPTI_FAKE_API_CALL_SYMBOL "simCuptiFakeApiCall"

#endif  // PROF_TESTDATA_SIM_CUPTI_SIM_CUPTI_TEST_API_H_
