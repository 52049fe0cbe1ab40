#include "agent/record/kernel_names.h"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "agent/control/config.h"

namespace prof {
namespace {

struct KernelNames {
  std::mutex mutex;
  std::unordered_map<const void*, std::string> names;    // guarded by mutex
  std::unordered_map<const void*, const void*> aliases;  // guarded by mutex
  std::unordered_set<const void*> step_markers;          // guarded by mutex
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
  if (names.step_markers.count(host_function) != 0) names.step_markers.insert(alias);
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
  char name[48];
  std::snprintf(name, sizeof(name), "kernel@%p", host_function);
  return name;
}

bool IsStepMarkerKernel(const void* host_function) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  return names.step_markers.count(host_function) != 0;
}

void SetStepMarkerKernelGlobs(const std::vector<std::string>& globs) {
  KernelNames& names = TheNames();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.marker_globs = globs;
}

void ResetKernelNamesAfterFork() { new (&TheNames().mutex) std::mutex(); }

}  // namespace prof
