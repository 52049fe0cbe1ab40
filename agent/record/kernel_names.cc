#include "agent/record/kernel_names.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <new>
#include <unordered_map>

#include "agent/control/config.h"
#include "agent/control/log.h"

namespace prof {
namespace {

// Open addressing with linear probing over twice the capacity (load <= 1/2, short probe
// runs). Slots go from null to a pointer once and never change again (no deletion), so a
// reader stops at the first null slot: the key, had it been inserted, would sit before it.
constexpr uint32_t kMarkerSlots = 2 * kMaxStepMarkerKernels;
static_assert((kMarkerSlots & (kMarkerSlots - 1)) == 0, "a power of two");

// Constant-initialized (no constructor runs): usable from hooks reached before ours.
std::atomic<const void*> g_marker_slots[kMarkerSlots];
std::atomic<int> g_marker_count{0};

uint32_t SlotOf(const void* pointer) {
  const uint64_t bits = reinterpret_cast<uintptr_t>(pointer);
  return static_cast<uint32_t>((bits * 0x9E3779B97F4A7C15ull) >> 40) & (kMarkerSlots - 1);
}

struct KernelNames {
  std::mutex mutex;
  std::unordered_map<const void*, std::string> names;    // guarded by mutex
  std::unordered_map<const void*, const void*> aliases;  // guarded by mutex
  std::vector<std::string> marker_globs;                 // guarded by mutex
  bool warned_full = false;                              // guarded by mutex
};

KernelNames& TheNames() {
  static KernelNames* names = new KernelNames;  // never destroyed: used during exit
  return *names;
}

// Called with the mutex held: the only writer of the slots.
void AddMarker(KernelNames& names, const void* host_function, const char* name) {
  if (!host_function || IsStepMarkerKernel(host_function)) return;
  if (g_marker_count.load(std::memory_order_relaxed) >= kMaxStepMarkerKernels) {
    if (!names.warned_full) {
      names.warned_full = true;
      Log(LogLevel::kWarn,
          "PROF_STEP_MARKER: more than %d kernels match the kernel rules; "
          "launches of '%s' and later matches end no step",
          kMaxStepMarkerKernels, name);
    }
    return;
  }
  for (uint32_t slot = SlotOf(host_function);; slot = (slot + 1) & (kMarkerSlots - 1)) {
    if (g_marker_slots[slot].load(std::memory_order_relaxed) == nullptr) {
      g_marker_slots[slot].store(host_function, std::memory_order_release);
      g_marker_count.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
}

bool MatchesAnyGlob(const KernelNames& names, const char* device_name) {
  for (const std::string& glob : names.marker_globs) {
    if (GlobMatch(glob.c_str(), device_name)) return true;
  }
  return false;
}

}  // namespace

void RegisterKernelName(const void* host_function, const char* device_name) {
  if (!host_function || !device_name) return;
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.names[host_function] = device_name;
  if (MatchesAnyGlob(names, device_name)) AddMarker(names, host_function, device_name);
}

void RegisterKernelAlias(const void* alias, const void* host_function) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.aliases[alias] = host_function;
  if (IsStepMarkerKernel(host_function)) AddMarker(names, alias, "an alias");
}

std::string KernelNameOf(const void* host_function) {
  KernelNames& names = TheNames();
  {
    std::lock_guard<std::mutex> lock(names.mutex);
    auto alias = names.aliases.find(host_function);
    if (alias != names.aliases.end()) host_function = alias->second;
    auto it = names.names.find(host_function);
    if (it != names.names.end()) return it->second;
  }
  Dl_info info;
  if (dladdr(host_function, &info) && info.dli_sname) return info.dli_sname;
  char fallback[40];
  std::snprintf(fallback, sizeof(fallback), "kernel@%p", host_function);
  return fallback;
}

// The launch path (hook_support.h CheckMarkers, then lifecycle.cc): wait-free, at most
// kMarkerSlots loads, in practice one or two.
bool IsStepMarkerKernel(const void* host_function) {
  if (!host_function) return false;
  for (uint32_t probe = 0, slot = SlotOf(host_function); probe < kMarkerSlots;
       ++probe, slot = (slot + 1) & (kMarkerSlots - 1)) {
    const void* entry = g_marker_slots[slot].load(std::memory_order_acquire);
    if (entry == host_function) return true;
    if (entry == nullptr) return false;
  }
  return false;
}

void SetStepMarkerKernelGlobs(const std::vector<std::string>& globs) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.marker_globs = globs;
  // Kernels registered earlier (DT_NEEDED libraries' constructors ran before ours).
  for (const auto& [function, name] : names.names) {
    if (MatchesAnyGlob(names, name.c_str())) AddMarker(names, function, name.c_str());
  }
  for (const auto& [alias, function] : names.aliases) {
    if (IsStepMarkerKernel(function)) AddMarker(names, alias, "an alias");
  }
}

int StepMarkerKernelCount() { return g_marker_count.load(std::memory_order_relaxed); }

void LockKernelNamesForFork() { TheNames().mutex.lock(); }
void UnlockKernelNamesAfterFork() { TheNames().mutex.unlock(); }
// The child's only thread took the lock before the fork: it releases it (see
// ResetBuffersAfterFork).
void ResetKernelNamesAfterFork() { TheNames().mutex.unlock(); }

}  // namespace prof
