// Finds the real definition of a function the agent interposes. dlsym(RTLD_NEXT) first;
// when that finds nothing (the library came in through an RTLD_LOCAL dlopen chain, as
// Python extensions load libcudart), every loaded object except libprof itself is asked
// through dlopen(RTLD_NOLOAD). Results are cached by the caller in an atomic; racing
// resolutions are harmless. Never holds a lock of the agent across dlsym/dlopen.
#ifndef PROF_AGENT_HOOKS_SYMBOL_RESOLVER_H_
#define PROF_AGENT_HOOKS_SYMBOL_RESOLVER_H_

#include <atomic>

namespace prof {

void* ResolveNextSymbol(const char* name);

template <typename Function>
Function ResolveReal(std::atomic<Function>& slot, const char* name) {
  Function function = slot.load(std::memory_order_acquire);
  if (function) return function;
  function = reinterpret_cast<Function>(ResolveNextSymbol(name));
  if (function) slot.store(function, std::memory_order_release);
  return function;
}

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_SYMBOL_RESOLVER_H_
