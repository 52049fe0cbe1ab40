// The activity record layouts libprof reads, for every CUPTI it accepts (cupti_versions.h):
//   kernel            CUDA 12.x: CUpti_ActivityKernel9     CUDA 13.0/13.1: Kernel10
//   memcpy            12.0-12.7: Memcpy5, 12.8+: Memcpy6   13.x: Memcpy6
//   memset            Memset4 throughout
//   synchronization   12.0-12.7: Synchronization (v1)      12.8+, 13.x: Synchronization2
// libprof is built with CUDA 13's headers, which still declare the older structs
// (cupti_activity_deprecated.h). The converter reads each record through the newest struct,
// which is right for an older version only because every field it reads sits at the same
// offset and has the same size there: checked below, field by field, so a header that
// moves one breaks the build rather than a trace. Records are walked with the loaded
// CUPTI's own cuptiActivityGetNextRecord, never by sizeof, so their sizes (Kernel9 208
// bytes, Kernel10 216; Memcpy5 88, Memcpy6 96; Synchronization 40, Synchronization2 56)
// never matter.
#ifndef PROF_AGENT_CUPTI_RECORD_LAYOUTS_H_
#define PROF_AGENT_CUPTI_RECORD_LAYOUTS_H_

#include <cupti.h>

#include <cstddef>

namespace prof {
namespace record_layouts {

#define PROF_SAME_FIELD(Older, Newer, field)                        \
  static_assert(offsetof(Older, field) == offsetof(Newer, field) && \
                    sizeof(Older::field) == sizeof(Newer::field),   \
                #Older "::" #field " is not where " #Newer          \
                       " has it: read it at "                       \
                       "its own offset")

// Every field ActivityConverter::AddKernel reads.
#define PROF_KERNEL_FIELDS(Older)                                      \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, kind);                \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, registersPerThread);  \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, start);               \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, end);                 \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, deviceId);            \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, contextId);           \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, streamId);            \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, gridX);               \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, gridY);               \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, gridZ);               \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, blockX);              \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, blockY);              \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, blockZ);              \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, staticSharedMemory);  \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, dynamicSharedMemory); \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, correlationId);       \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, name);                \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, launchType);          \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, graphNodeId);         \
  PROF_SAME_FIELD(Older, CUpti_ActivityKernel10, graphId)

// Every field AddMemcpy reads.
#define PROF_MEMCPY_FIELDS(Older)                               \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, kind);          \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, copyKind);      \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, srcKind);       \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, dstKind);       \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, bytes);         \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, start);         \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, end);           \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, deviceId);      \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, contextId);     \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, streamId);      \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, correlationId); \
  PROF_SAME_FIELD(Older, CUpti_ActivityMemcpy6, runtimeCorrelationId)

// Every field AddSynchronization reads.
#define PROF_SYNCHRONIZATION_FIELDS(Older)                               \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, kind);          \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, type);          \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, start);         \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, end);           \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, correlationId); \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, contextId);     \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, streamId);      \
  PROF_SAME_FIELD(Older, CUpti_ActivitySynchronization2, cudaEventId)

PROF_KERNEL_FIELDS(CUpti_ActivityKernel9);                   // CUDA 12.0-12.9
PROF_MEMCPY_FIELDS(CUpti_ActivityMemcpy5);                   // CUDA 12.0-12.7
PROF_SYNCHRONIZATION_FIELDS(CUpti_ActivitySynchronization);  // CUDA 12.0-12.7

#undef PROF_SYNCHRONIZATION_FIELDS
#undef PROF_MEMCPY_FIELDS
#undef PROF_KERNEL_FIELDS
#undef PROF_SAME_FIELD

}  // namespace record_layouts
}  // namespace prof

#endif  // PROF_AGENT_CUPTI_RECORD_LAYOUTS_H_
