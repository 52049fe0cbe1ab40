#include "analyzer/model/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>

namespace prof::analyzer {

std::string DemangleKernelName(absl::string_view name) {
  if (name.size() < 3 || name.substr(0, 2) != "_Z") return std::string(name);
  const std::string mangled(name);
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return mangled;
  std::string result(demangled);
  std::free(demangled);
  return result;
}

bool IsNcclKernelName(absl::string_view name) {
  return name.find("ncclKernel_") != absl::string_view::npos ||
         name.find("ncclDevKernel_") != absl::string_view::npos;
}

namespace {

bool IsHost(schema::MemoryKind kind) {
  return kind == schema::MEMORY_KIND_PAGEABLE || kind == schema::MEMORY_KIND_PINNED;
}

bool IsDevice(schema::MemoryKind kind) {
  return kind == schema::MEMORY_KIND_DEVICE || kind == schema::MEMORY_KIND_DEVICE_POOL ||
         kind == schema::MEMORY_KIND_MANAGED;
}

}  // namespace

const char* MemcpyName(schema::CopyKind kind, schema::MemoryKind source,
                       schema::MemoryKind destination) {
  switch (kind) {
    case schema::COPY_KIND_HOST_TO_DEVICE: return "MEMCPY_HtoD";
    case schema::COPY_KIND_DEVICE_TO_HOST: return "MEMCPY_DtoH";
    case schema::COPY_KIND_HOST_TO_HOST: return "MEMCPY_HtoH";
    case schema::COPY_KIND_DEVICE_TO_DEVICE: return "MEMCPY_DtoD";
    case schema::COPY_KIND_PEER_TO_PEER: return "MEMCPY_PtoP";
    default: break;
  }
  // cudaMemcpyDefault and unknown kinds: infer the direction from the memory kinds.
  if (IsHost(source) && IsDevice(destination)) return "MEMCPY_HtoD";
  if (IsDevice(source) && IsHost(destination)) return "MEMCPY_DtoH";
  if (IsDevice(source) && IsDevice(destination)) return "MEMCPY_DtoD";
  if (IsHost(source) && IsHost(destination)) return "MEMCPY_HtoH";
  return "MEMCPY";
}

}  // namespace prof::analyzer
