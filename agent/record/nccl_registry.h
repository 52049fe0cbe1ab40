// NCCL communicators seen by the hooks (ncclCommInit*), keyed by the ncclComm_t pointer.
// Communicators are usually created before a window opens, so they are registered here
// whatever the recording state, and each window file defines those it uses.
// Thread-safe (mutex; communicator creation is rare).
#ifndef PROF_AGENT_RECORD_NCCL_REGISTRY_H_
#define PROF_AGENT_RECORD_NCCL_REGISTRY_H_

#include <cstdint>

#include "proto/events.h"

namespace prof {

void RegisterCommunicator(const void* comm, const CommunicatorValue& value);
void ForgetCommunicator(const void* comm);
// False when `comm` was never registered (created before the agent loaded).
bool LookupCommunicator(const void* comm, CommunicatorValue* value);

// In a forked child: the mutex may have been held by a thread that no longer exists.
void ResetCommunicatorsAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_NCCL_REGISTRY_H_
