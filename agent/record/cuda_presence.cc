#include "agent/record/cuda_presence.h"

#include <link.h>

#include <cstring>

namespace prof {
namespace internal {
std::atomic<bool> g_device_deferred{false};
void (*g_enable_deferred_device)() = nullptr;
}  // namespace internal

namespace {

struct PrefixSearch {
  const char* prefix;
  std::string found;
};

int MatchLoadedObject(struct dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<PrefixSearch*>(data);
  if (!info->dlpi_name || !*info->dlpi_name) return 0;
  const char* slash = std::strrchr(info->dlpi_name, '/');
  const char* file = slash ? slash + 1 : info->dlpi_name;
  if (std::strncmp(file, search->prefix, std::strlen(search->prefix)) != 0) return 0;
  search->found = info->dlpi_name;
  return 1;  // stop iterating
}

}  // namespace

std::string LoadedLibraryPath(const char* prefix) {
  PrefixSearch search{prefix, {}};
  dl_iterate_phdr(&MatchLoadedObject, &search);
  return search.found;
}

bool CudaLibraryLoaded() {
  return !LoadedLibraryPath("libcudart").empty() || !LoadedLibraryPath("libcuda.so").empty();
}

}  // namespace prof
