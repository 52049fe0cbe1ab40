#include "agent/record/cuda_presence.h"

#include <link.h>

#include <cstring>

namespace prof {
namespace internal {
std::atomic<bool> g_device_deferred{false};
void (*g_enable_deferred_device)() = nullptr;
}  // namespace internal

bool CudaLibraryLoaded() {
  return dl_iterate_phdr(
             [](struct dl_phdr_info* object, size_t, void*) -> int {
               const char* name = object->dlpi_name;
               if (!name || !*name) return 0;
               const char* base = std::strrchr(name, '/');
               base = base ? base + 1 : name;
               return std::strncmp(base, "libcudart", 9) == 0 ||
                      std::strncmp(base, "libcuda.so", 10) == 0;
             },
             nullptr) != 0;
}

}  // namespace prof
