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

bool IsHost(trace::MemoryKind kind) {
  return kind == trace::MEMORY_KIND_PAGEABLE || kind == trace::MEMORY_KIND_PINNED;
}

bool IsDevice(trace::MemoryKind kind) {
  return kind == trace::MEMORY_KIND_DEVICE || kind == trace::MEMORY_KIND_DEVICE_POOL ||
         kind == trace::MEMORY_KIND_MANAGED;
}

}  // namespace

const char* MemcpyName(trace::CopyKind kind, trace::MemoryKind source,
                       trace::MemoryKind destination) {
  switch (kind) {
    case trace::COPY_KIND_HOST_TO_DEVICE: return "MEMCPY_HtoD";
    case trace::COPY_KIND_DEVICE_TO_HOST: return "MEMCPY_DtoH";
    case trace::COPY_KIND_HOST_TO_HOST: return "MEMCPY_HtoH";
    case trace::COPY_KIND_DEVICE_TO_DEVICE: return "MEMCPY_DtoD";
    case trace::COPY_KIND_PEER_TO_PEER: return "MEMCPY_PtoP";
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
