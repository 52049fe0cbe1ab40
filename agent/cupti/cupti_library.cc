#include "agent/cupti/cupti_library.h"

#include <dlfcn.h>

#include <string>

namespace prof {
namespace {

// Resolves one symbol into `slot`; false (with `error` naming it) when it is missing.
template <typename Function>
bool Resolve(void* handle, const char* name, Function* slot, std::string* error) {
  *slot = reinterpret_cast<Function>(dlsym(handle, name));
  if (*slot) return true;
  *error = std::string("it has no ") + name;
  return false;
}

bool ResolveAll(CuptiLibrary* l, std::string* error) {
  void* h = l->handle;
  return Resolve(h, "cuptiGetVersion", &l->GetVersion, error) &&
         Resolve(h, "cuptiGetResultString", &l->GetResultString, error) &&
         Resolve(h, "cuptiSubscribe", &l->Subscribe, error) &&
         Resolve(h, "cuptiUnsubscribe", &l->Unsubscribe, error) &&
         Resolve(h, "cuptiEnableCallback", &l->EnableCallback, error) &&
         Resolve(h, "cuptiEnableDomain", &l->EnableDomain, error) &&
         Resolve(h, "cuptiActivityRegisterCallbacks", &l->ActivityRegisterCallbacks, error) &&
         Resolve(h, "cuptiActivityEnable", &l->ActivityEnable, error) &&
         Resolve(h, "cuptiActivityDisable", &l->ActivityDisable, error) &&
         Resolve(h, "cuptiActivityFlushAll", &l->ActivityFlushAll, error) &&
         Resolve(h, "cuptiActivityGetNextRecord", &l->ActivityGetNextRecord, error) &&
         Resolve(h, "cuptiActivityGetNumDroppedRecords", &l->ActivityGetNumDroppedRecords, error) &&
         Resolve(h, "cuptiGetTimestamp", &l->GetTimestamp, error);
}

}  // namespace

std::string CuptiLibrary::ResultText(CUptiResult result) const {
  const char* text = nullptr;
  if (GetResultString && GetResultString(result, &text) == CUPTI_SUCCESS && text) return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

bool LoadCuptiLibrary(const std::string& path, bool only_if_loaded, CuptiLibrary* library,
                      std::string* error) {
  // RTLD_LOCAL: CUPTI's symbols must not become candidates for anyone else's lookups.
  const int flags = RTLD_NOW | RTLD_LOCAL | (only_if_loaded ? RTLD_NOLOAD : 0);
  CuptiLibrary loaded;
  loaded.path = path;
  loaded.handle = dlopen(path.c_str(), flags);
  if (!loaded.handle) {
    const char* reason = dlerror();
    *error = reason ? reason : "dlopen failed";
    return false;
  }
  if (!ResolveAll(&loaded, error)) {
    dlclose(loaded.handle);
    return false;
  }
  *library = loaded;
  return true;
}

}  // namespace prof
