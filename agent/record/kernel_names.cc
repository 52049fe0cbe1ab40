#include "agent/record/kernel_names.h"

#include <dlfcn.h>

#include <mutex>
#include <new>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "agent/control/config.h"

namespace prof {
namespace {

struct KernelNames {
  std::mutex mutex;
  absl::flat_hash_map<const void*, std::string> names;  // guarded by mutex
  absl::flat_hash_map<const void*, const void*> aliases;  // guarded by mutex
  absl::flat_hash_set<const void*> step_markers;       // guarded by mutex
  std::vector<std::string> marker_globs;               // guarded by mutex
};

KernelNames& TheNames() {
  static KernelNames* names = new KernelNames;  // never destroyed: used during exit
  return *names;
}

}  // namespace

void RegisterKernelName(const void* host_function, const char* device_name) {
  if (!host_function || !device_name) return;
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.names[host_function] = device_name;
  for (const std::string& glob : names.marker_globs) {
    if (GlobMatch(glob.c_str(), device_name)) names.step_markers.insert(host_function);
  }
}

void RegisterKernelAlias(const void* alias, const void* host_function) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.aliases[alias] = host_function;
  if (names.step_markers.contains(host_function)) names.step_markers.insert(alias);
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
  return absl::StrFormat("kernel@%p", host_function);
}

bool IsStepMarkerKernel(const void* host_function) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  return names.step_markers.contains(host_function);
}

void SetStepMarkerKernelGlobs(const std::vector<std::string>& globs) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.marker_globs = globs;
}

void ResetKernelNamesAfterFork() { new (&TheNames().mutex) std::mutex(); }

}  // namespace prof
