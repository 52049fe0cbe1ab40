#include "agent/tests/sanitizer_preload.h"

#include <link.h>

#include <cstring>

namespace prof::testing {
namespace {

// dl_iterate_phdr callback: remembers the path of a loaded ASan or TSan runtime.
int FindRuntime(struct dl_phdr_info* info, size_t, void* data) {
  const char* name = info->dlpi_name;
  if (name == nullptr || name[0] == '\0') return 0;
  const char* slash = std::strrchr(name, '/');
  const char* base = slash ? slash + 1 : name;
  if (std::strncmp(base, "libasan.so", 10) != 0 && std::strncmp(base, "libtsan.so", 10) != 0) {
    return 0;
  }
  *static_cast<std::string*>(data) = name;
  return 1;
}

}  // namespace

std::string WithSanitizerRuntime(const std::string& preload) {
  std::string runtime;
  dl_iterate_phdr(FindRuntime, &runtime);
  if (runtime.empty() || preload.empty()) return preload;
  return runtime + " " + preload;
}

}  // namespace prof::testing
