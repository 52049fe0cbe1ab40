#include "agent/hooks/flight_event_hooks.h"

#include <cuda_runtime_api.h>

#include <atomic>

#include "agent/control/log.h"
#include "agent/hooks/symbol_resolver.h"
#include "agent/record/errno_preserved.h"
#include "agent/record/flight_events.h"
#include "agent/record/recorder.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

using CreateFunction = cudaError_t (*)(cudaEvent_t*, unsigned);
using RecordFunction = cudaError_t (*)(cudaEvent_t, cudaStream_t);
using QueryFunction = cudaError_t (*)(cudaEvent_t);

CreateFunction g_create = nullptr;  // set once, before SetFlightEventFunctions publishes
RecordFunction g_record = nullptr;
QueryFunction g_query = nullptr;

// The agent's own runtime calls: marked as a hook's (AwaitCorrelationId), so CUPTI's
// callback does not record them as the program's while a window records.
int Create(void** event, unsigned flags) {
  AwaitCorrelationId();
  const cudaError_t result = g_create(reinterpret_cast<cudaEvent_t*>(event), flags);
  TakeCorrelationId();
  return result;
}

int RecordOn(void* event, void* stream) {
  AwaitCorrelationId();
  const cudaError_t result =
      g_record(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream));
  TakeCorrelationId();
  return result;
}

int Query(void* event) {
  AwaitCorrelationId();
  const cudaError_t result = g_query(static_cast<cudaEvent_t>(event));
  TakeCorrelationId();
  return result;
}

// Once per process, on the first collective: the definitions a call from libprof.so's
// own scope reaches (the process's runtime; libprof's hooks never count).
void ResolveRuntimeOnce() {
  static std::atomic<bool> tried{false};
  if (tried.load(std::memory_order_acquire) || tried.exchange(true, std::memory_order_acq_rel))
    return;
  static RealSymbol create;
  static RealSymbol record;
  static RealSymbol query;
  const void* self = reinterpret_cast<const void*>(&ResolveRuntimeOnce);
  g_create = reinterpret_cast<CreateFunction>(create.For(self, "cudaEventCreateWithFlags"));
  g_record = reinterpret_cast<RecordFunction>(record.For(self, "cudaEventRecord"));
  g_query = reinterpret_cast<QueryFunction>(query.For(self, "cudaEventQuery"));
  if (!g_create || !g_record || !g_query) {
    Log(LogLevel::kWarn,
        "flight recorder: the CUDA runtime has no cudaEventCreateWithFlags/cudaEventRecord/"
        "cudaEventQuery: NCCL calls are followed on the host only (returned, GPU state unknown)");
    return;
  }
  SetFlightEventFunctions({Create, RecordOn, Query});
}

// A group's calls waiting for the outermost ncclGroupEnd (this thread's group: NCCL
// groups are per thread).
constexpr int kGroupedCalls = 32;
struct Grouped {
  uint32_t pair;
  uint64_t ticket;
  void* stream;
};
// Initial-exec for the two counters every flight-recorded call reads (no __tls_get_addr);
// the list is touched only inside groups.
thread_local int t_group_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local int t_grouped __attribute__((tls_model("initial-exec"))) = 0;
thread_local Grouped t_group[kGroupedCalls];

bool IsGroupStart(const FlightCallArguments& call) {
  return call.operation == schema::NCCL_OPERATION_GROUP_START;
}
bool IsGroupEnd(const FlightCallArguments& call) {
  return call.operation == schema::NCCL_OPERATION_GROUP_END;
}
void* StreamOf(const FlightCallArguments& call) { return reinterpret_cast<void*>(call.stream); }

// The outermost ncclGroupEnd returned: the group's work is on its streams now.
void EndGroup() {
  for (int i = 0; i < t_grouped; ++i)
    FlightEventsEnd(t_group[i].pair, t_group[i].ticket, t_group[i].stream);
  t_grouped = 0;
}

}  // namespace

uint32_t FlightDeviceBegin(uint64_t ticket, const FlightCallArguments& call) {
  if (IsGroupStart(call) || IsGroupEnd(call)) return 0;  // no work of their own
  ErrnoPreserved keep;
  ResolveRuntimeOnce();
  return FlightEventsBegin(ticket, StreamOf(call));
}

void FlightDeviceEnd(uint32_t pair, uint64_t ticket, const FlightCallArguments& call,
                     ncclResult_t result) {
  ErrnoPreserved keep;
  if (IsGroupStart(call)) {
    if (result == ncclSuccess) ++t_group_depth;
    return;
  }
  if (IsGroupEnd(call)) {
    if (t_group_depth > 0 && --t_group_depth == 0) EndGroup();
    return;
  }
  if (t_group_depth == 0) {
    FlightEventsEnd(pair, ticket, StreamOf(call));
  } else if (pair != 0 && t_grouped < kGroupedCalls) {
    t_group[t_grouped++] = {pair, ticket, StreamOf(call)};
  } else {
    FlightEventsAbandon(pair, ticket);
  }
}

}  // namespace prof
