// The simulated device's state: streams, events, graphs and allocations, guarded by one
// mutex. The lock is only ever held for bookkeeping, never while sleeping or while calling
// out to CUPTI (a CUPTI client may call back into the runtime from its callbacks).
#ifndef PROF_TESTDATA_SIM_CUDART_RUNTIME_STATE_H_
#define PROF_TESTDATA_SIM_CUDART_RUNTIME_STATE_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "testdata/sim/cudart/work_item.h"

namespace sim {

// CUPTI memory kinds (CUPTI_ACTIVITY_MEMORY_KIND_*), kept as their numeric values.
enum class MemoryKind : uint32_t { kPageable = 1, kPinned = 2, kDevice = 3, kManaged = 5 };

struct Allocation {
  size_t size = 0;
  MemoryKind kind = MemoryKind::kDevice;
  int device = 0;
};

struct Graph {
  uint32_t id = 0;
  std::vector<WorkItem> nodes;
  bool invalidated = false;  // an illegal call during capture; EndCapture then fails
};

struct Stream {
  uint32_t id = 0;  // what CUPTI reports as streamId
  int device = 0;
  unsigned flags = cudaStreamDefault;
  int priority = 0;
  bool is_legacy = false;
  bool is_per_thread = false;
  uint64_t tail_ns = 0;            // completion time of the last enqueued item
  std::shared_ptr<Graph> capture;  // set while the stream is being captured
  bool capture_origin = false;     // the stream BeginCapture was called on
  cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeGlobal;
};

struct Event {
  uint32_t id = 0;
  unsigned flags = cudaEventDefault;
  int device = 0;
  bool recorded = false;
  uint64_t time_ns = 0;            // when the recorded point completes
  std::shared_ptr<Graph> capture;  // recorded inside a capture: joins waiting streams
};

struct GraphExec {
  std::shared_ptr<const Graph> graph;
};

struct DeviceTimeline {
  uint64_t max_blocking_tail_ns = 0;  // latest tail of the device's blocking streams
};

struct RuntimeState {
  std::mutex mutex;
  std::unordered_map<uint64_t, Stream> streams;  // by key (see StreamKey*)
  std::unordered_map<uint64_t, Event> events;    // by handle value
  std::unordered_map<uint64_t, std::shared_ptr<Graph>> graphs;
  std::unordered_map<uint64_t, GraphExec> graph_execs;
  std::map<uintptr_t, Allocation> allocations;  // ordered: lookup of interior pointers
  std::vector<DeviceTimeline> devices;
  uint64_t next_handle = 1;
  uint32_t next_stream_id = 13;  // real CUDA hands out small ids; 7 is the legacy stream
  uint32_t next_event_id = 1;
  uint32_t next_graph_id = 1;
};

// The process-wide state; created on first use, never destroyed (threads may still call
// in during exit).
RuntimeState& State();

// A fresh handle value, never reused, so a destroyed handle stays detectably invalid.
uint64_t NewHandleValue(RuntimeState& state);

// How a NULL stream argument is read: the legacy default stream, or the calling thread's
// per-thread default stream (_ptds/_ptsz entry points).
enum class NullStream { kLegacy, kPerThread };

// Finds the stream a handle names on the current device, creating the legacy and
// per-thread default streams on first use. NULL for unknown or destroyed handles.
// Requires state.mutex.
Stream* ResolveStream(RuntimeState& state, cudaStream_t handle, NullStream null_stream);
Stream& LegacyStream(RuntimeState& state, int device);

// Allocation containing `pointer`, or NULL for memory the runtime did not allocate.
// Requires state.mutex.
const Allocation* FindAllocation(const RuntimeState& state, const void* pointer,
                                 uintptr_t* base = nullptr);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_RUNTIME_STATE_H_
