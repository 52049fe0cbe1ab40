// Which activity kinds are enabled, the thread-id flavor, and the per-thread external
// correlation stacks.
#ifndef PROF_TESTDATA_SIM_CUPTI_ACTIVITY_STATE_H_
#define PROF_TESTDATA_SIM_CUPTI_ACTIVITY_STATE_H_

#include <cupti_activity.h>

#include <cstdint>

namespace simcupti {

// Kinds this CUPTI produces records for, ignores quietly, or rejects.
enum class KindSupport { kRecorded, kIgnored, kLegacyUnsupported, kInvalid };
KindSupport SupportOf(CUpti_ActivityKind kind);

void SetKindEnabled(CUpti_ActivityKind kind, bool enabled);
bool KindEnabled(CUpti_ActivityKind kind);
void DisableAllKinds();

void SetThreadIdType(CUpti_ActivityThreadIdType type);
CUpti_ActivityThreadIdType GetThreadIdType();
uint32_t CurrentThreadId();

void PushExternalId(CUpti_ExternalCorrelationKind kind, uint64_t id);
bool PopExternalId(CUpti_ExternalCorrelationKind kind, uint64_t* id);
// Calls `emit` for every kind with a non-empty stack on this thread (innermost id).
void ForEachExternalId(void (*emit)(CUpti_ExternalCorrelationKind kind, uint64_t id,
                                    uint32_t correlation_id),
                       uint32_t correlation_id);

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_ACTIVITY_STATE_H_
