// The timing model's queueing rules: each stream is an in-order queue; an item starts at
// max(enqueue time + launch latency, the stream's tail, events it waits on, not_before),
// and lasts its modeled duration. The legacy default stream waits for all blocking streams
// of its device, and blocking streams wait for it; cudaStreamNonBlocking streams do not.
#ifndef PROF_TESTDATA_SIM_CUDART_SCHEDULER_H_
#define PROF_TESTDATA_SIM_CUDART_SCHEDULER_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "testdata/sim/bridge/sim_bridge.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/work_item.h"

namespace sim {

struct Scheduled {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

// Places an item of `duration_ns` at the end of `stream`. Requires state.mutex.
Scheduled ScheduleOnStream(RuntimeState& state, Stream& stream, uint64_t duration_ns,
                           uint64_t not_before_ns, bool add_launch_latency);

// Delays all later work of `stream` until `time_ns` (cudaStreamWaitEvent).
void WaitOnStream(RuntimeState& state, Stream& stream, uint64_t time_ns);

SimDeviceWork MakeWorkRecord(const WorkItem& item, const Stream& stream, Scheduled when,
                             uint64_t queued_ns, uint32_t correlation_id);

struct EnqueueResult {
  bool captured = false;  // recorded into a graph under capture instead of executed
  Scheduled when;
};

// Enqueues one item (or appends it to the stream's capture), applies its memory effect
// when executed, reports it to CUPTI and remembers it as the thread's last item.
// Errors: cudaErrorInvalidResourceHandle for an unknown stream;
// cudaErrorStreamCaptureUnsupported for a synchronous item on a capturing stream.
cudaError_t EnqueueWork(cudaStream_t stream, NullStream null_stream, const WorkItem& item,
                        uint32_t correlation_id, uint64_t not_before_ns,
                        EnqueueResult* result = nullptr);

// Latest tail over every stream of `device`. Requires state.mutex.
uint64_t DeviceTailNs(const RuntimeState& state, int device);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_SCHEDULER_H_
