#include "testdata/sim/cudart/scheduler.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/thread_context.h"
#include "testdata/sim/cudart/timing_model.h"

namespace sim {
namespace {

bool IsBlocking(const Stream& stream) {
  return !stream.is_legacy && (stream.flags & cudaStreamNonBlocking) == 0;
}

void NoteBlockingTail(RuntimeState& state, const Stream& stream) {
  if (!IsBlocking(stream)) return;
  uint64_t& tail = state.devices[static_cast<size_t>(stream.device)].max_blocking_tail_ns;
  tail = std::max(tail, stream.tail_ns);
}

}  // namespace

Scheduled ScheduleOnStream(RuntimeState& state, Stream& stream, uint64_t duration_ns,
                           uint64_t not_before_ns, bool add_launch_latency) {
  uint64_t ready = MonotonicNowNs() + (add_launch_latency ? LaunchLatencyNs() : 0);
  ready = std::max({ready, stream.tail_ns, not_before_ns});
  if (stream.is_legacy) {
    ready = std::max(ready, state.devices[static_cast<size_t>(stream.device)].max_blocking_tail_ns);
  } else if (IsBlocking(stream)) {
    ready = std::max(ready, LegacyStream(state, stream.device).tail_ns);
  }
  Scheduled when{ready, ready + duration_ns};
  stream.tail_ns = when.end_ns;
  NoteBlockingTail(state, stream);
  return when;
}

void WaitOnStream(RuntimeState& state, Stream& stream, uint64_t time_ns) {
  stream.tail_ns = std::max(stream.tail_ns, time_ns);
  NoteBlockingTail(state, stream);
}

SimDeviceWork MakeWorkRecord(const WorkItem& item, const Stream& stream, Scheduled when,
                             uint64_t queued_ns, uint32_t correlation_id) {
  SimDeviceWork work;
  std::memset(&work, 0, sizeof(work));
  work.kind = item.kind;
  work.correlation_id = correlation_id;
  work.queued_ns = queued_ns;
  work.start_ns = when.start_ns;
  work.end_ns = when.end_ns;
  work.device = static_cast<uint32_t>(stream.device);
  work.context_id = ContextIdForDevice(work.device);
  work.stream_id = stream.id;
  work.name = item.name;
  work.grid[0] = static_cast<int32_t>(item.grid.x);
  work.grid[1] = static_cast<int32_t>(item.grid.y);
  work.grid[2] = static_cast<int32_t>(item.grid.z);
  work.block[0] = static_cast<int32_t>(item.block.x);
  work.block[1] = static_cast<int32_t>(item.block.y);
  work.block[2] = static_cast<int32_t>(item.block.z);
  work.dynamic_shared_memory = static_cast<int32_t>(item.dynamic_shared_memory);
  work.bytes = item.bytes;
  work.copy_kind = item.copy_kind;
  work.src_kind = item.src_kind;
  work.dst_kind = item.dst_kind;
  work.is_async = item.is_async ? 1 : 0;
  work.memset_value = static_cast<uint32_t>(item.memset_value);
  return work;
}

cudaError_t EnqueueWork(cudaStream_t handle, NullStream null_stream, const WorkItem& item,
                        uint32_t correlation_id, uint64_t not_before_ns, EnqueueResult* result) {
  EnqueueResult local;
  SimDeviceWork work;
  RuntimeState& state = State();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    Stream* stream = ResolveStream(state, handle, null_stream);
    if (stream == nullptr) return cudaErrorInvalidResourceHandle;
    if (stream->capture != nullptr && item.blocks_host) {
      // A synchronous call on a capturing stream is illegal and spoils the capture.
      stream->capture->invalidated = true;
      return cudaErrorStreamCaptureUnsupported;
    }
    if (stream->capture != nullptr) {
      stream->capture->nodes.push_back(item);
      local.captured = true;
    } else {
      uint64_t queued = MonotonicNowNs();
      local.when = ScheduleOnStream(state, *stream, item.duration_ns, not_before_ns, true);
      work = MakeWorkRecord(item, *stream, local.when, queued, correlation_id);
    }
  }
  if (!local.captured) {
    ApplyMemoryEffect(item);
    ReportDeviceWork(work);
    ThreadLastItem() = LastItem{true, local.when.start_ns, local.when.end_ns, correlation_id};
  }
  if (result != nullptr) *result = local;
  return cudaSuccess;
}

uint64_t DeviceTailNs(const RuntimeState& state, int device) {
  uint64_t tail = 0;
  for (const auto& entry : state.streams) {
    if (entry.second.device == device) tail = std::max(tail, entry.second.tail_ns);
  }
  return tail;
}

void ApplyMemoryEffect(const WorkItem& item) {
  if (item.bytes == 0 || item.dst == nullptr) return;
  if (item.kind == kSimWorkMemcpy && item.src != nullptr)
    std::memmove(item.dst, item.src, item.bytes);
  if (item.kind == kSimWorkMemset) std::memset(item.dst, item.memset_value, item.bytes);
}

}  // namespace sim
