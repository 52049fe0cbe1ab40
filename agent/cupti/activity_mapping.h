// CUPTI's enumerations (copy kinds, memory kinds, synchronization types) as the trace's.
// Values CUPTI adds later map to UNKNOWN rather than to a wrong guess.
//
// Thread safety: pure functions.
#ifndef PROF_AGENT_CUPTI_ACTIVITY_MAPPING_H_
#define PROF_AGENT_CUPTI_ACTIVITY_MAPPING_H_

#include <cstdint>

#include "proto/schema_enums.h"

namespace prof {

// CUpti_ActivityMemcpyKind. Arrays count as device memory (they live there).
schema::CopyKind CopyKindOfCupti(uint32_t copy_kind);

// CUpti_ActivityMemoryKind. The *_STATIC kinds (module globals) keep their location.
schema::MemoryKind MemoryKindOfCupti(uint32_t memory_kind);

// CUpti_ActivitySynchronizationType.
schema::SynchronizationKind SynchronizationKindOfCupti(uint32_t type);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_ACTIVITY_MAPPING_H_
