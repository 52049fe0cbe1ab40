// Finds, for each caller, the real definition of a function the agent interposes.
//
// Design rule: a hooked call goes to the definition its caller would have reached without
// the agent: the next definition after libprof.so in the caller's lookup scope, bound
// with the symbol version the caller's own binding asks for. Per (symbol, calling object):
//   1. The caller is the object holding the hook's return address (dl_iterate_phdr).
//   2. Its version: what its .dynsym entry for the name binds to (symbol_version.h):
//      "libcudart.so.12" for a library linked against cudart 12, its own node for a library
//      that contains and exports a versioned runtime, none when unversioned.
//   3. The global scope after libprof: dlvsym/dlsym(RTLD_NEXT) — the dynamic linker
//      searches the global scope first, and an object before libprof would have taken
//      the call from libprof in the first place.
//   4. Else the caller's own dependency scope: dlvsym/dlsym on a RTLD_NOLOAD handle of the
//      caller (what an RTLD_LOCAL dlopen chain brings in: Python extensions and their cudart).
//   5. Else (no entry: a pointer from dlsym(RTLD_DEFAULT), or code outside any object) the
//      first loaded object that defines the name, unversioned.
// Definitions inside libprof itself never count. So with a cu11 and a cu12 runtime in one
// process, or a library that statically contains and exports its own runtime, each
// caller's calls and each module's __cudaRegisterFunction reach its own copy; with a
// single runtime everything resolves to it, as before.
//
// Cost: the hot path compares the return address with the spans of the objects already
// seen for this symbol (lock-free; usually one entry) and calls the cached pointer.
// Only the first call from each object takes the slow path. A name nothing defines is
// cached as such and searched again only once the loader has loaded more objects
// (dlpi_adds changed), not on every call.
//
// Thread safety: entries are published with release stores of their end address; racing
// first calls from one object may both resolve and both append (harmless duplicates).
// No lock of the agent is held at any point, so none is held across dlsym/dlopen, and
// no dlopen/dlsym ever runs inside a dl_iterate_phdr callback (loaded_objects.h).
// Fork: a child inherits the tables as they are; an entry half-written at the fork is
// skipped (its end is still 0) and the child resolves again. Signals: the hot path only
// loads atomics and is async-signal-safe; the slow path (dl_iterate_phdr, dlopen, dlsym,
// malloc) is not, like the CUDA call it serves.
// Limits: kCallers objects per symbol are cached; calls from further objects, and from
// code outside every object (JIT), walk the loaded objects on every call (correct,
// slower). An object unloaded and another loaded at the same addresses keeps the first
// one's binding. A hook reached by a tail call sees its caller's caller. An unversioned
// binding is looked up like dlsym (the default version), where the dynamic linker would
// also accept an object's only non-default version; RTLD_DEEPBIND and DT_SYMBOLIC
// callers never reach the hooks for their own definitions in the first place.
#ifndef PROF_AGENT_HOOKS_SYMBOL_RESOLVER_H_
#define PROF_AGENT_HOOKS_SYMBOL_RESOLVER_H_

#include <atomic>
#include <cstdint>

namespace prof {

// The real definitions of one interposed name, per calling object. A function-local
// static in each hook, all zero: it lies in .bss, so the loader neither copies nor
// relocates it (with the name stored inside, each of the ~150 tables of ~1 KiB would sit
// in .data behind a relocation and cost dirty pages at every load, CUDA or not).
class RealSymbol {
 public:
  constexpr RealSymbol() = default;

  // The definition of `name` (always the same for one RealSymbol) that a call from
  // `caller` (an address inside the calling object, usually __builtin_return_address(0)
  // of the hook) reaches; nullptr when none is loaded.
  void* For(const void* caller, const char* name) {
    const uintptr_t address = reinterpret_cast<uintptr_t>(caller);
    uint32_t used = used_.load(std::memory_order_acquire);
    if (used > kCallers) used = kCallers;
    for (uint32_t i = 0; i < used; ++i) {
      const Binding& binding = bindings_[i];
      // Acquire on end: start and target were stored before it.
      if (address < binding.end.load(std::memory_order_acquire) &&
          address >= binding.start.load(std::memory_order_relaxed)) {
        if (void* target = binding.target.load(std::memory_order_acquire)) return target;
        break;  // a cached "not found": the slow path decides whether to search again
      }
    }
    return Resolve(address, name);
  }

  static constexpr uint32_t kCallers = 32;

 private:
  struct Binding {
    std::atomic<uintptr_t> start{0};  // the caller object's span
    std::atomic<uintptr_t> end{0};    // 0 until the entry is complete
    std::atomic<void*> target{nullptr};
    std::atomic<unsigned long long> additions{0};  // loads seen when it was resolved
  };

  void* Resolve(uintptr_t caller, const char* name) __attribute__((noinline));
  Binding* FindBinding(uintptr_t caller);
  void* Refresh(Binding* binding, uintptr_t caller, const char* name);
  void Append(uintptr_t start, uintptr_t end, void* target, unsigned long long additions);

  std::atomic<uint32_t> used_{0};
  Binding bindings_[kCallers];
  Binding outside_;  // callers outside every object (JIT code): one shared answer
};

}  // namespace prof

// Declares `real`: the definition of `name` (a declared function) that the hook's caller
// reaches. Expands at the top of the hook function itself, so the return address is the
// caller's.
#define PROF_RESOLVE_REAL(name)                        \
  static ::prof::RealSymbol real_symbol_##name;        \
  const auto real = reinterpret_cast<decltype(&name)>( \
      real_symbol_##name.For(__builtin_return_address(0), #name))

#endif  // PROF_AGENT_HOOKS_SYMBOL_RESOLVER_H_
