#include "agent/hooks/symbol_resolver.h"

#include "agent/record/errno_preserved.h"

#include <dlfcn.h>

#include <climits>

#include "agent/hooks/loaded_objects.h"
#include "agent/hooks/symbol_version.h"

namespace prof {
namespace {

constexpr size_t kVersionCapacity = 128;

// libprof.so's own span, to skip its definitions (the hooks). Racing first calls compute
// the same values; no lock needed.
struct OwnSpan {
  std::atomic<uintptr_t> start{0};
  std::atomic<uintptr_t> end{0};
};
OwnSpan g_own;

bool InsideAgent(const void* address) {
  uintptr_t end = g_own.end.load(std::memory_order_acquire);
  if (end == 0) {
    LoadedObject own;
    if (!FindObjectHolding(reinterpret_cast<uintptr_t>(&InsideAgent), &own)) return false;
    g_own.start.store(own.start, std::memory_order_relaxed);
    g_own.end.store(own.end, std::memory_order_release);
    end = own.end;
  }
  const auto value = reinterpret_cast<uintptr_t>(address);
  return value >= g_own.start.load(std::memory_order_relaxed) && value < end;
}

void* Usable(void* definition) {
  return definition && !InsideAgent(definition) ? definition : nullptr;
}

void* LookUp(void* handle, const char* name, const char* version) {
  return Usable(version[0] ? dlvsym(handle, name, version) : dlsym(handle, name));
}

// Searches the scope of the object at `path` (itself, then its dependencies). dlopen
// with RTLD_NOLOAD only takes a reference to an object already loaded; dlclose returns it.
void* LookUpInObjectScope(const char* path, const char* name, const char* version) {
  void* handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return nullptr;
  void* definition = LookUp(handle, name, version);
  dlclose(handle);
  return definition;
}

// Step 5 of the rule (symbol_resolver.h): each path is copied out first, and dlopen runs
// only after dl_iterate_phdr has returned. Quadratic in the number of objects, but only
// for names no caller's scope defines, and then cached.
void* LookUpAnywhere(const char* name) {
  char path[PATH_MAX];
  for (int index = 1; LoadedObjectPath(index, path, sizeof path); ++index) {
    if (path[0] == '\0') continue;  // the vDSO, or a path too long
    if (void* definition = LookUpInObjectScope(path, name, "")) return definition;
  }
  return nullptr;
}

// Steps 2-5 of the rule for a caller (nullptr: outside every object).
void* FindDefinition(const char* name, const LoadedObject* caller) {
  char version[kVersionCapacity] = "";
  if (caller) BoundVersion(*caller, name, version, sizeof version);
  if (void* definition = LookUp(RTLD_NEXT, name, version)) return definition;
  if (caller && !caller->is_main_program && caller->path[0] != '\0') {
    if (void* definition = LookUpInObjectScope(caller->path, name, version)) return definition;
  }
  return LookUpAnywhere(name);
}

}  // namespace

RealSymbol::Binding* RealSymbol::FindBinding(uintptr_t caller) {
  uint32_t used = used_.load(std::memory_order_acquire);
  if (used > kCallers) used = kCallers;
  for (uint32_t i = 0; i < used; ++i) {
    Binding& binding = bindings_[i];
    if (caller < binding.end.load(std::memory_order_acquire) &&
        caller >= binding.start.load(std::memory_order_relaxed)) {
      return &binding;
    }
  }
  return nullptr;
}

// A cached binding: its target, or for a cached "not found" a new search only when more
// objects were loaded since.
void* RealSymbol::Refresh(Binding* binding, uintptr_t caller, const char* name) {
  if (void* target = binding->target.load(std::memory_order_acquire)) return target;
  const unsigned long long additions = LoadedObjectAdditions();
  if (additions == binding->additions.load(std::memory_order_relaxed)) return nullptr;
  LoadedObject object;
  const bool known = binding != &outside_ && FindObjectHolding(caller, &object);
  void* target = FindDefinition(name, known ? &object : nullptr);
  binding->additions.store(additions, std::memory_order_relaxed);
  binding->target.store(target, std::memory_order_release);
  return target;
}

void RealSymbol::Append(uintptr_t start, uintptr_t end, void* target,
                        unsigned long long additions) {
  if (used_.load(std::memory_order_relaxed) >= kCallers) return;
  const uint32_t index = used_.fetch_add(1, std::memory_order_acq_rel);
  if (index >= kCallers) return;  // full: later callers resolve on every call
  Binding& binding = bindings_[index];
  binding.start.store(start, std::memory_order_relaxed);
  binding.target.store(target, std::memory_order_relaxed);
  binding.additions.store(additions, std::memory_order_relaxed);
  binding.end.store(end, std::memory_order_release);  // publishes the entry
}

void* RealSymbol::Resolve(uintptr_t caller, const char* name) {
  ErrnoPreserved keep;  // dlsym, dlopen and /proc reads may set it
  if (Binding* binding = FindBinding(caller)) return Refresh(binding, caller, name);
  // Read before the search, so an object loaded during it triggers a later re-search.
  const unsigned long long additions = LoadedObjectAdditions();
  LoadedObject object;
  if (!FindObjectHolding(caller, &object)) {
    if (outside_.end.load(std::memory_order_acquire)) return Refresh(&outside_, caller, name);
    void* target = FindDefinition(name, nullptr);
    outside_.target.store(target, std::memory_order_relaxed);
    outside_.additions.store(additions, std::memory_order_relaxed);
    outside_.end.store(1, std::memory_order_release);
    return target;
  }
  void* target = FindDefinition(name, &object);
  Append(object.start, object.end, target, additions);
  return target;
}

}  // namespace prof
