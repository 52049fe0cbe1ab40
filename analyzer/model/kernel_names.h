// Kernel and copy names as the tables show them: demangled kernel names, NCCL kernels of
// both generations recognized, and paddle's MEMCPY_* / MEMSET labels. Pure functions.
#ifndef PROF_ANALYZER_MODEL_KERNEL_NAMES_H_
#define PROF_ANALYZER_MODEL_KERNEL_NAMES_H_

#include <string>

#include "absl/strings/string_view.h"
#include "proto/schema_enums.h"
#include "proto/trace.pb.h"

namespace prof::analyzer {

// The demangled name, or `name` itself when it is not an Itanium-mangled symbol.
std::string DemangleKernelName(absl::string_view name);

// True for ncclKernel_* (NCCL <= 2.18) and ncclDevKernel_* (2.19+), mangled or not.
bool IsNcclKernelName(absl::string_view name);

// MEMCPY_HtoD, MEMCPY_DtoH, ... as paddle names CUPTI copies; MEMCPY when unknown.
const char* MemcpyName(schema::CopyKind kind, schema::MemoryKind source,
                       schema::MemoryKind destination);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_KERNEL_NAMES_H_
