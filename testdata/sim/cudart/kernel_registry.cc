#include "testdata/sim/cudart/kernel_registry.h"

#include <pthread.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sim {
namespace {

struct KernelEntry {
  const char* name;
  void** module;  // NULL for names registered by simRegisterKernel
};

struct Registry {
  std::mutex mutex;
  std::unordered_set<std::string> names;
  std::unordered_map<const void*, KernelEntry> kernels;
  std::unordered_map<std::string, const void*> named_stubs;
};

void LockBeforeFork();
void UnlockAfterFork();

Registry& TheRegistry() {
  // Never destroyed: kernels may be launched (and names read) during exit.
  static Registry* registry = [] {
    auto* created = new Registry();
    pthread_atfork(LockBeforeFork, UnlockAfterFork, UnlockAfterFork);
    return created;
  }();
  return *registry;
}

void LockBeforeFork() { TheRegistry().mutex.lock(); }
void UnlockAfterFork() { TheRegistry().mutex.unlock(); }

const char* InternLocked(Registry& registry, const char* name) {
  return registry.names.insert(std::string(name)).first->c_str();
}

}  // namespace

const char* InternName(const char* name) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return InternLocked(registry, name);
}

void RegisterKernel(const void* host_function, const char* name, void** module) {
  if (host_function == nullptr || name == nullptr) return;
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.kernels[host_function] = KernelEntry{InternLocked(registry, name), module};
}

void UnregisterModule(void** module) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (auto it = registry.kernels.begin(); it != registry.kernels.end();) {
    it = it->second.module == module && module != nullptr ? registry.kernels.erase(it) : ++it;
  }
}

const char* KernelName(const void* host_function) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto found = registry.kernels.find(host_function);
  return found == registry.kernels.end() ? nullptr : found->second.name;
}

const void* RegisterNamedKernel(const char* name) {
  if (name == nullptr || *name == '\0') return nullptr;
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto found = registry.named_stubs.find(name);
  if (found != registry.named_stubs.end()) return found->second;
  // One leaked byte per name gives a unique address that no real function has.
  const void* stub = new char(0);
  registry.kernels[stub] = KernelEntry{InternLocked(registry, name), nullptr};
  registry.named_stubs.emplace(name, stub);
  return stub;
}

}  // namespace sim
