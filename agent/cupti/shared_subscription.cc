#include "agent/cupti/shared_subscription.h"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace prof {
namespace {

// Ids above these are never dispatched (CUDA 13's largest driver id is under 1000).
constexpr uint32_t kDomains = 8;
constexpr uint32_t kMaxCbid = 2048;
constexpr uint8_t kAgentBit = 1;
constexpr uint8_t kProgramBit = 2;

uint8_t BitOf(Party party) { return party == Party::kAgent ? kAgentBit : kProgramBit; }
int IndexOf(Party party) { return party == Party::kAgent ? 0 : 1; }

// The handles given out: addresses no CUPTI handle can have.
char g_tokens[2];
CUpti_SubscriberHandle TokenOf(Party party) {
  return reinterpret_cast<CUpti_SubscriberHandle>(&g_tokens[IndexOf(party)]);
}

struct PartyState {
  bool subscribed = false;
  // Subscribed to another copy of CUPTI than the real subscription's (a second libcupti
  // in the process): that copy's own subscription, used as is.
  bool direct = false;
  CallbackApi direct_api;
  std::atomic<CUpti_SubscriberHandle> direct_handle{nullptr};
  std::atomic<CUpti_CallbackFunc> callback{nullptr};
  std::atomic<void*> userdata{nullptr};
};

struct Shared {
  std::mutex mutex;
  CallbackApi api;  // of the real subscription
  CUpti_SubscriberHandle real = nullptr;
  PartyState parties[2];
  // Which parties enabled each id (kAgentBit | kProgramBit); read by the dispatch.
  std::atomic<uint8_t> enabled[kDomains][kMaxCbid];
};

Shared& TheShared() {
  static Shared* shared = new Shared();  // never destroyed: CUPTI may call in during exit
  return *shared;
}

bool InTable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return domain > CUPTI_CB_DOMAIN_INVALID && static_cast<uint32_t>(domain) < kDomains &&
         cbid < kMaxCbid;
}

void CUPTIAPI Dispatch(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                       const void* data) {
  if (!InTable(domain, cbid)) return;
  Shared& shared = TheShared();
  const uint8_t bits = shared.enabled[domain][cbid].load(std::memory_order_acquire);
  for (Party party : {Party::kAgent, Party::kProgram}) {
    if (!(bits & BitOf(party))) continue;
    PartyState& state = shared.parties[IndexOf(party)];
    CUpti_CallbackFunc callback = state.callback.load(std::memory_order_acquire);
    if (callback) callback(state.userdata.load(std::memory_order_acquire), domain, cbid, data);
  }
}

bool Owns(Shared& shared, Party party, CUpti_SubscriberHandle handle) {
  return shared.parties[IndexOf(party)].subscribed && handle == TokenOf(party);
}

// The party's subscription to another copy of CUPTI, if `handle` is that one.
const PartyState* Direct(Shared& shared, Party party, CUpti_SubscriberHandle handle) {
  const PartyState& state = shared.parties[IndexOf(party)];
  return state.subscribed && state.direct && handle == state.direct_handle.load() ? &state
                                                                                : nullptr;
}

// Sets `party`'s bit of one id and the real flag to the union. Requires the mutex.
CUptiResult SetLocked(Shared& shared, Party party, bool enable, CUpti_CallbackDomain domain,
                      CUpti_CallbackId cbid) {
  std::atomic<uint8_t>& flags = shared.enabled[domain][cbid];
  const uint8_t before = flags.load(std::memory_order_relaxed);
  const uint8_t after = enable ? (before | BitOf(party)) : (before & ~BitOf(party));
  if ((before != 0) != (after != 0)) {
    const CUptiResult result =
        shared.api.enable_callback(after != 0 ? 1 : 0, shared.real, domain, cbid);
    if (result != CUPTI_SUCCESS) return result;
  }
  flags.store(after, std::memory_order_release);
  return CUPTI_SUCCESS;
}

// A whole domain for `party` (CUPTI_CB_DOMAIN_INVALID: all). The real domain call covers
// ids above the table too; disabling re-enables, one by one, what the other party keeps.
CUptiResult SetDomainLocked(Shared& shared, Party party, bool enable,
                            CUpti_CallbackDomain domain) {
  for (uint32_t each = 1; each < kDomains; ++each) {
    if (domain != CUPTI_CB_DOMAIN_INVALID && each != static_cast<uint32_t>(domain)) continue;
    const auto d = static_cast<CUpti_CallbackDomain>(each);
    const CUptiResult result = shared.api.enable_domain(enable ? 1 : 0, shared.real, d);
    // A domain this CUPTI does not have: CUPTI refuses it, so does "all" silently.
    if (result != CUPTI_SUCCESS) {
      if (domain == CUPTI_CB_DOMAIN_INVALID) continue;
      return result;
    }
    for (uint32_t cbid = 0; cbid < kMaxCbid; ++cbid) {
      std::atomic<uint8_t>& flags = shared.enabled[each][cbid];
      uint8_t bits = flags.load(std::memory_order_relaxed);
      bits = enable ? (bits | BitOf(party)) : (bits & ~BitOf(party));
      if (!enable && bits != 0) shared.api.enable_callback(1, shared.real, d, cbid);
      flags.store(bits, std::memory_order_release);
    }
  }
  return CUPTI_SUCCESS;
}

}  // namespace

CUptiResult SharedSubscribe(Party party, const CallbackApi& api, CUpti_SubscriberHandle* handle,
                            CUpti_CallbackFunc callback, void* userdata) {
  if (handle == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  Shared& shared = TheShared();
  std::lock_guard<std::mutex> lock(shared.mutex);
  PartyState& state = shared.parties[IndexOf(party)];
  if (state.subscribed) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  if (shared.real != nullptr && api.subscribe != shared.api.subscribe) {
    const CUptiResult result = api.subscribe(handle, callback, userdata);
    if (result != CUPTI_SUCCESS) return result;
    state.subscribed = state.direct = true;
    state.direct_api = api;
    state.direct_handle.store(*handle);
    return CUPTI_SUCCESS;
  }
  if (shared.real == nullptr) {
    CUpti_SubscriberHandle real = nullptr;
    const CUptiResult result = api.subscribe(&real, &Dispatch, nullptr);
    if (result != CUPTI_SUCCESS) return result;
    shared.real = real;
    shared.api = api;
  }
  state.callback.store(callback, std::memory_order_release);
  state.userdata.store(userdata, std::memory_order_release);
  state.subscribed = true;
  *handle = TokenOf(party);
  return CUPTI_SUCCESS;
}

CUptiResult SharedUnsubscribe(Party party, CUpti_SubscriberHandle handle) {
  Shared& shared = TheShared();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (const PartyState* direct = Direct(shared, party, handle)) {
    const CUptiResult result = direct->direct_api.unsubscribe(handle);
    PartyState& state = shared.parties[IndexOf(party)];
    state.subscribed = state.direct = false;
    state.direct_handle.store(nullptr);
    return result;
  }
  if (!Owns(shared, party, handle)) return CUPTI_ERROR_INVALID_PARAMETER;
  PartyState& state = shared.parties[IndexOf(party)];
  const PartyState& other_state = shared.parties[1 - IndexOf(party)];
  const bool other = other_state.subscribed && !other_state.direct;
  for (uint32_t domain = 1; domain < kDomains; ++domain) {
    for (uint32_t cbid = 0; cbid < kMaxCbid; ++cbid) {
      if (!(shared.enabled[domain][cbid].load(std::memory_order_relaxed) & BitOf(party))) {
        continue;
      }
      if (other) {
        SetLocked(shared, party, false, static_cast<CUpti_CallbackDomain>(domain), cbid);
      } else {
        shared.enabled[domain][cbid].store(0, std::memory_order_release);
      }
    }
  }
  state.subscribed = false;
  state.callback.store(nullptr, std::memory_order_release);
  if (!other) {
    // Like CUPTI's own unsubscribe: every id of the real handle goes with it.
    shared.api.unsubscribe(shared.real);
    shared.real = nullptr;
  }
  return CUPTI_SUCCESS;
}

CUptiResult SharedEnableCallback(Party party, uint32_t enable, CUpti_SubscriberHandle handle,
                                 CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  Shared& shared = TheShared();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (const PartyState* direct = Direct(shared, party, handle)) {
    return direct->direct_api.enable_callback(enable, handle, domain, cbid);
  }
  if (!Owns(shared, party, handle) || !InTable(domain, cbid)) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  return SetLocked(shared, party, enable != 0, domain, cbid);
}

CUptiResult SharedEnableDomain(Party party, uint32_t enable, CUpti_SubscriberHandle handle,
                               CUpti_CallbackDomain domain) {
  Shared& shared = TheShared();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (const PartyState* direct = Direct(shared, party, handle)) {
    if (domain != CUPTI_CB_DOMAIN_INVALID) return direct->direct_api.enable_domain(enable, handle, domain);
    for (uint32_t each = 1; each < kDomains; ++each) {
      direct->direct_api.enable_domain(enable, handle, static_cast<CUpti_CallbackDomain>(each));
    }
    return CUPTI_SUCCESS;
  }
  if (!Owns(shared, party, handle)) return CUPTI_ERROR_INVALID_PARAMETER;
  if (domain != CUPTI_CB_DOMAIN_INVALID && !InTable(domain, 0)) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  return SetDomainLocked(shared, party, enable != 0, domain);
}

CUptiResult SharedGetCallbackState(Party party, uint32_t* enable, CUpti_SubscriberHandle handle,
                                   CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (enable == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  Shared& shared = TheShared();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (!Owns(shared, party, handle) || !InTable(domain, cbid)) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  *enable = (shared.enabled[domain][cbid].load(std::memory_order_relaxed) & BitOf(party)) ? 1 : 0;
  return CUPTI_SUCCESS;
}

bool IsSharedHandle(Party party, CUpti_SubscriberHandle handle) {
  return handle == TokenOf(party) ||
         (handle != nullptr &&
          handle == TheShared().parties[IndexOf(party)].direct_handle.load());
}

}  // namespace prof
