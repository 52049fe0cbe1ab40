#include "testdata/sim/cupti/callback_dispatch.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "testdata/sim/cupti/cupti_config.h"

namespace simcupti {
namespace {

static_assert(static_cast<int>(kSimDomainDriver) == static_cast<int>(CUPTI_CB_DOMAIN_DRIVER_API),
              "bridge domain values");
static_assert(static_cast<int>(kSimDomainRuntime) == static_cast<int>(CUPTI_CB_DOMAIN_RUNTIME_API),
              "bridge domain values");

constexpr uint32_t kMaxCbid = 2048;
// The only handle ever given out; a value no real pointer has.
CUpti_SubscriberHandle const kSubscriberHandle = reinterpret_cast<CUpti_SubscriberHandle>(0x5C0B5);

struct Subscription {
  std::mutex mutex;
  bool active = false;
  CUpti_CallbackFunc callback = nullptr;
  void* userdata = nullptr;
  std::vector<bool> runtime_enabled = std::vector<bool>(kMaxCbid, false);
  std::vector<bool> driver_enabled = std::vector<bool>(kMaxCbid, false);
};

// Lets the common case (nobody subscribed) skip the lock.
std::atomic<bool> any_subscriber{false};
std::atomic<uint64_t> delivered{0};  // callbacks handed to a subscriber (test-only query)

Subscription& TheSubscription() {
  static Subscription* subscription = new Subscription();  // never destroyed
  return *subscription;
}

std::vector<bool>* FlagsFor(Subscription& subscription, CUpti_CallbackDomain domain) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return &subscription.runtime_enabled;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) return &subscription.driver_enabled;
  return nullptr;
}

bool KnownDomain(CUpti_CallbackDomain domain) {
  return domain > CUPTI_CB_DOMAIN_INVALID && domain < CUPTI_CB_DOMAIN_SIZE;
}

}  // namespace

CUptiResult Subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                      void* userdata) {
  if (subscriber == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  if (Config().other_subscriber) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  Subscription& subscription = TheSubscription();
  std::lock_guard<std::mutex> lock(subscription.mutex);
  if (subscription.active) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  subscription.active = true;
  subscription.callback = callback;
  subscription.userdata = userdata;
  subscription.runtime_enabled.assign(kMaxCbid, false);
  subscription.driver_enabled.assign(kMaxCbid, false);
  any_subscriber.store(true, std::memory_order_release);
  *subscriber = kSubscriberHandle;
  return CUPTI_SUCCESS;
}

CUptiResult Unsubscribe(CUpti_SubscriberHandle subscriber) {
  Subscription& subscription = TheSubscription();
  std::lock_guard<std::mutex> lock(subscription.mutex);
  if (!subscription.active || subscriber != kSubscriberHandle) return CUPTI_ERROR_INVALID_PARAMETER;
  subscription.active = false;
  subscription.callback = nullptr;
  // Like the real CUPTI: an unsubscribed handle has no callback enabled.
  subscription.runtime_enabled.assign(kMaxCbid, false);
  subscription.driver_enabled.assign(kMaxCbid, false);
  any_subscriber.store(false, std::memory_order_release);
  return CUPTI_SUCCESS;
}

CUptiResult EnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                           CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  Subscription& subscription = TheSubscription();
  std::lock_guard<std::mutex> lock(subscription.mutex);
  if (!subscription.active || subscriber != kSubscriberHandle) return CUPTI_ERROR_INVALID_PARAMETER;
  if (!KnownDomain(domain)) return CUPTI_ERROR_INVALID_PARAMETER;
  std::vector<bool>* flags = FlagsFor(subscription, domain);
  if (flags == nullptr) return CUPTI_SUCCESS;  // other domains never fire here
  if (cbid >= kMaxCbid) return CUPTI_ERROR_INVALID_PARAMETER;
  (*flags)[cbid] = enable != 0;
  return CUPTI_SUCCESS;
}

CUptiResult EnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
                         CUpti_CallbackDomain domain) {
  Subscription& subscription = TheSubscription();
  std::lock_guard<std::mutex> lock(subscription.mutex);
  if (!subscription.active || subscriber != kSubscriberHandle) return CUPTI_ERROR_INVALID_PARAMETER;
  if (domain != CUPTI_CB_DOMAIN_INVALID && !KnownDomain(domain)) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  for (CUpti_CallbackDomain each : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
    if (domain == CUPTI_CB_DOMAIN_INVALID || domain == each) {
      FlagsFor(subscription, each)->assign(kMaxCbid, enable != 0);
    }
  }
  return CUPTI_SUCCESS;
}

CUptiResult GetCallbackState(uint32_t* enable, CUpti_SubscriberHandle subscriber,
                             CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (enable == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  Subscription& subscription = TheSubscription();
  std::lock_guard<std::mutex> lock(subscription.mutex);
  if (!subscription.active || subscriber != kSubscriberHandle) return CUPTI_ERROR_INVALID_PARAMETER;
  std::vector<bool>* flags = FlagsFor(subscription, domain);
  *enable = flags != nullptr && cbid < kMaxCbid && (*flags)[cbid] ? 1 : 0;
  return CUPTI_SUCCESS;
}

size_t EnabledCallbackIds(CUpti_CallbackDomain domain, uint32_t* ids, size_t capacity) {
  Subscription& subscription = TheSubscription();
  std::lock_guard<std::mutex> lock(subscription.mutex);
  std::vector<bool>* flags = FlagsFor(subscription, domain);
  if (!subscription.active || flags == nullptr) return 0;
  size_t count = 0;
  for (uint32_t cbid = 0; cbid < kMaxCbid; ++cbid) {
    if (!(*flags)[cbid]) continue;
    if (ids != nullptr && count < capacity) ids[count] = cbid;
    ++count;
  }
  return count;
}

uint64_t DeliveredCallbacks() { return delivered.load(std::memory_order_relaxed); }

void DispatchApiCallback(CUpti_ApiCallbackSite site, SimApiCallEvent* event) {
  if (!any_subscriber.load(std::memory_order_acquire)) return;
  CUpti_CallbackFunc callback = nullptr;
  void* userdata = nullptr;
  auto domain = static_cast<CUpti_CallbackDomain>(event->domain);
  {
    Subscription& subscription = TheSubscription();
    std::lock_guard<std::mutex> lock(subscription.mutex);
    std::vector<bool>* flags = FlagsFor(subscription, domain);
    if (!subscription.active || flags == nullptr || event->cbid >= kMaxCbid ||
        !(*flags)[event->cbid]) {
      return;
    }
    callback = subscription.callback;
    userdata = subscription.userdata;
  }
  if (callback == nullptr) return;
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionName = event->function_name;
  data.functionParams = event->params;
  data.functionReturnValue = &event->return_value;
  data.symbolName = event->symbol_name;
  data.context = static_cast<CUcontext>(sim::ContextHandleForDevice(event->device));
  data.contextUid = sim::ContextIdForDevice(event->device);
  data.correlationData = &event->correlation_data;
  data.correlationId = event->correlation_id;
  delivered.fetch_add(1, std::memory_order_relaxed);
  callback(userdata, domain, event->cbid, &data);
}

}  // namespace simcupti
