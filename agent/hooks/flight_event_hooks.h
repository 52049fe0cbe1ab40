// The NCCL hooks' one call into the flight recorder's GPU side (record/flight_events.h):
// FlightTracked runs the real NCCL call between its two CUDA events. It resolves the
// runtime's cudaEventCreateWithFlags / cudaEventRecord / cudaEventQuery once, as every
// hook resolves its real function (symbol_resolver.h; never a link-time dependency), and
// when they are missing says so in one line and leaves NCCL calls to the host-only view.
//
// Groups: between ncclGroupStart and ncclGroupEnd a collective only queues its work, which
// NCCL launches at the outermost ncclGroupEnd. So a grouped call's first event is recorded
// at the call (before its work) and its second right after that ncclGroupEnd, on the
// call's stream (up to kGroupedCalls calls a group; more are counted as not followed).
// The agent's own CUDA calls are marked as hooked for CUPTI (AwaitCorrelationId), so a
// recording window never shows them as the program's.
#ifndef PROF_AGENT_HOOKS_FLIGHT_EVENT_HOOKS_H_
#define PROF_AGENT_HOOKS_FLIGHT_EVENT_HOOKS_H_

#include <nccl.h>

#include <cstdint>

#include "agent/record/flight_ring.h"

namespace prof {

// Program's thread, around the real call of ring ticket `ticket` (0: the flight recorder
// is off; then only the call runs).
uint32_t FlightDeviceBegin(uint64_t ticket, const FlightCallArguments& call);
void FlightDeviceEnd(uint32_t pair, uint64_t ticket, const FlightCallArguments& call,
                     ncclResult_t result);

template <typename Call>
ncclResult_t FlightTracked(uint64_t ticket, const FlightCallArguments& call, Call&& real) {
  if (ticket == 0) return real();
  const uint32_t pair = FlightDeviceBegin(ticket, call);
  const ncclResult_t result = real();
  FlightDeviceEnd(pair, ticket, call, result);
  return result;
}

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_FLIGHT_EVENT_HOOKS_H_
