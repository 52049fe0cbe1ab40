// The test-only entry points (sim_cupti_test_api.h).
#include "testdata/sim/cupti/sim_cupti_test_api.h"

#include <atomic>

#include "testdata/sim/bridge/sim_bridge.h"
#include "testdata/sim/cupti/callback_dispatch.h"
#include "testdata/sim/cupti/export.h"

namespace {

std::atomic<uint32_t> next_fake_correlation{0x40000000u};

}  // namespace

SIM_CUPTI_EXPORT size_t simCuptiEnabledCallbackIds(CUpti_CallbackDomain domain, uint32_t* ids,
                                                   size_t capacity) {
  return simcupti::EnabledCallbackIds(domain, ids, capacity);
}

SIM_CUPTI_EXPORT uint64_t simCuptiDeliveredCallbacks(void) {
  return simcupti::DeliveredCallbacks();
}

SIM_CUPTI_EXPORT uint32_t simCuptiFakeApiCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                              const char* function_name) {
  SimApiCallEvent event{};
  event.domain = static_cast<uint32_t>(domain);
  event.cbid = cbid;
  event.function_name = function_name;
  event.correlation_id = next_fake_correlation.fetch_add(1, std::memory_order_relaxed);
  simcupti::DispatchApiCallback(CUPTI_API_ENTER, &event);
  event.return_value = 0;
  simcupti::DispatchApiCallback(CUPTI_API_EXIT, &event);
  return event.correlation_id;
}
