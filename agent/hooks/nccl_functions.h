// The NCCL collectives, send/receive and group calls that libprof.so intercepts, each
// with the operation it records. nccl_hooks.cc defines one hook per entry, and
// PROF_STEP_MARKER's api:NAME accepts exactly these names, so a rule can never name a
// call that does not fire (nccl_functions_test checks that libprof.so exports each).
// Communicator constructors (ncclCommInit*, ncclCommSplit, ncclCommShrink) are
// intercepted too but are not step markers.
#ifndef PROF_AGENT_HOOKS_NCCL_FUNCTIONS_H_
#define PROF_AGENT_HOOKS_NCCL_FUNCTIONS_H_

#include <cstdint>
#include <string>

#include "agent/record/api_ids.h"

namespace prof {

// X(function name, NcclOperation suffix in trace.proto)
#define PROF_NCCL_FUNCTIONS(X)                                                      \
  X(ncclAllReduce, ALL_REDUCE)                                                      \
  X(ncclBroadcast, BROADCAST) X(ncclBcast, BROADCAST) X(ncclReduce, REDUCE)         \
      X(ncclAllGather, ALL_GATHER) X(ncclReduceScatter, REDUCE_SCATTER)             \
          X(ncclAlltoAll, ALL_TO_ALL) X(ncclGather, GATHER) X(ncclScatter, SCATTER) \
              X(ncclSend, SEND) X(ncclRecv, RECV) X(ncclGroupStart, GROUP_START)    \
                  X(ncclGroupEnd, GROUP_END)

enum NcclFunction : uint16_t {
#define PROF_NCCL_ENUM(name, operation) kNccl_##name,
  PROF_NCCL_FUNCTIONS(PROF_NCCL_ENUM)
#undef PROF_NCCL_ENUM
      kNcclFunctionCount
};

// Marker ids of NCCL functions follow the CUDA runtime's (ApiId), so one id space and
// one comparison on the hot path cover both.
constexpr uint16_t NcclMarkerId(NcclFunction function) {
  return static_cast<uint16_t>(kApiCount + function);
}

// The marker id of an intercepted NCCL function; kApiNone for any other name.
uint16_t NcclMarkerApiId(const std::string& name);

// "ncclAlltoAll" for kNccl_ncclAlltoAll; "" when out of range.
const char* NcclFunctionName(uint16_t function);

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_NCCL_FUNCTIONS_H_
