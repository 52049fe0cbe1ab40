#include "agent/record/nccl_registry.h"

#include <mutex>
#include <new>

#include "absl/container/flat_hash_map.h"

namespace prof {
namespace {

struct Communicators {
  std::mutex mutex;
  absl::flat_hash_map<const void*, CommunicatorValue> by_pointer;  // guarded by mutex
};

Communicators& TheCommunicators() {
  static Communicators* communicators = new Communicators;  // used during exit
  return *communicators;
}

}  // namespace

void RegisterCommunicator(const void* comm, const CommunicatorValue& value) {
  Communicators& communicators = TheCommunicators();
  std::lock_guard<std::mutex> lock(communicators.mutex);
  communicators.by_pointer[comm] = value;
}

void ForgetCommunicator(const void* comm) {
  Communicators& communicators = TheCommunicators();
  std::lock_guard<std::mutex> lock(communicators.mutex);
  communicators.by_pointer.erase(comm);
}

bool LookupCommunicator(const void* comm, CommunicatorValue* value) {
  Communicators& communicators = TheCommunicators();
  std::lock_guard<std::mutex> lock(communicators.mutex);
  auto it = communicators.by_pointer.find(comm);
  if (it == communicators.by_pointer.end()) return false;
  *value = it->second;
  return true;
}

void ResetCommunicatorsAfterFork() { new (&TheCommunicators().mutex) std::mutex(); }

}  // namespace prof
