// The CUPTI entry points the agent uses, resolved with dlopen + dlsym: libprof never links
// libcupti, because frameworks (PyTorch) ship their own copy and two copies of CUPTI in one
// process crash. A library is loaded at most once per process and never unloaded (CUPTI
// keeps threads and callbacks into us alive until exit).
//
// Thread safety: LoadCuptiLibrary is called from the writer thread only; a loaded
// CuptiLibrary is immutable and may be read from any thread.
#ifndef PROF_AGENT_CUPTI_CUPTI_LIBRARY_H_
#define PROF_AGENT_CUPTI_CUPTI_LIBRARY_H_

#include <cupti.h>

#include <string>

namespace prof {

struct CuptiLibrary {
  void* handle = nullptr;
  std::string path;
  decltype(&::cuptiGetVersion) GetVersion = nullptr;
  decltype(&::cuptiGetResultString) GetResultString = nullptr;
  decltype(&::cuptiSubscribe) Subscribe = nullptr;
  decltype(&::cuptiUnsubscribe) Unsubscribe = nullptr;
  decltype(&::cuptiEnableCallback) EnableCallback = nullptr;
  decltype(&::cuptiEnableDomain) EnableDomain = nullptr;
  decltype(&::cuptiActivityRegisterCallbacks) ActivityRegisterCallbacks = nullptr;
  decltype(&::cuptiActivityEnable) ActivityEnable = nullptr;
  decltype(&::cuptiActivityDisable) ActivityDisable = nullptr;
  decltype(&::cuptiActivityFlushAll) ActivityFlushAll = nullptr;
  decltype(&::cuptiActivityGetNextRecord) ActivityGetNextRecord = nullptr;
  decltype(&::cuptiActivityGetNumDroppedRecords) ActivityGetNumDroppedRecords = nullptr;
  decltype(&::cuptiGetTimestamp) GetTimestamp = nullptr;

  // "CUPTI_ERROR_..." for `result` (the number when CUPTI cannot name it).
  std::string ResultText(CUptiResult result) const;
};

// Opens `path` (only if it is already loaded when `only_if_loaded`) and resolves every
// entry point. On failure returns false with `error` saying why (dlerror's text or the
// missing symbol) and leaves nothing open.
bool LoadCuptiLibrary(const std::string& path, bool only_if_loaded, CuptiLibrary* library,
                      std::string* error);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_LIBRARY_H_
