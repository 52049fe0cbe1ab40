// Whether the process has loaded CUDA (a libcudart or libcuda), and the deferred request
// to record device activity. CUPTI is subscribed only in a process that uses CUDA: one
// that never does (a shell, a CPU-only PyTorch run) pays nothing and prints nothing, and a
// parent does not touch CUDA before forking its workers.
#ifndef PROF_AGENT_RECORD_CUDA_PRESENCE_H_
#define PROF_AGENT_RECORD_CUDA_PRESENCE_H_

#include <atomic>
#include <string>

namespace prof {

// The path of the first loaded object whose file name starts with `prefix` ("" if none).
// Scans the loaded objects (dl_iterate_phdr); not for the hot path.
std::string LoadedLibraryPath(const char* prefix);

bool CudaLibraryLoaded();

namespace internal {
// Set when device activity was wanted while no CUDA library was loaded: the first
// intercepted CUDA call turns it on (EnableDeferredDeviceActivity).
extern std::atomic<bool> g_device_deferred;
extern void (*g_enable_deferred_device)();
}  // namespace internal

// One load on the recording path of the hooks.
inline void EnableDeferredDeviceActivity() {
  if (internal::g_device_deferred.load(std::memory_order_relaxed) &&
      internal::g_device_deferred.exchange(false) && internal::g_enable_deferred_device) {
    internal::g_enable_deferred_device();
  }
}

}  // namespace prof

#endif  // PROF_AGENT_RECORD_CUDA_PRESENCE_H_
