#include "testdata/sim/cupti/record_builder.h"

#include <cupti_activity.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstring>

#include "testdata/sim/cupti/activity_buffers.h"
#include "testdata/sim/cupti/activity_state.h"
#include "testdata/sim/cupti/cupti_clock.h"
#include "testdata/sim/cupti/record_flavour.h"

namespace simcupti {
namespace {

std::atomic<int64_t> next_grid_id{1};

// Host-side records: deliverable at once.
template <typename Record>
void Queue(const Record& record) {
  AddRecord(&record, sizeof(record), 0, nullptr);
}

// Device records: deliverable once the work completed (a forced flush zeroes their times).
template <typename Record>
void QueueDeviceRecord(const Record& record, uint64_t completes_at_ns) {
  RecordTimes times{offsetof(Record, start), offsetof(Record, end)};
  AddRecord(&record, sizeof(record), completes_at_ns, &times);
}

void EmitExternalCorrelation(CUpti_ExternalCorrelationKind kind, uint64_t id,
                             uint32_t correlation_id) {
  CUpti_ActivityExternalCorrelation record;
  std::memset(&record, 0, sizeof(record));
  record.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  record.externalKind = kind;
  record.externalId = id;
  record.correlationId = correlation_id;
  Queue(record);
}

void RecordKernel(const SimDeviceWork& work) {
  CUpti_ActivityKind kind = KindEnabled(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
                                ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                : CUPTI_ACTIVITY_KIND_KERNEL;
  if (!KindEnabled(kind)) return;
  KernelRecord record;
  std::memset(&record, 0, sizeof(record));
  record.kind = kind;
  record.registersPerThread = 32;
  record.start = ToCuptiTime(work.start_ns);
  record.end = ToCuptiTime(work.end_ns);
  record.completed = record.end;
  record.queued = ToCuptiTime(work.queued_ns);
  record.submitted = record.queued;
  record.deviceId = work.device;
  record.contextId = work.context_id;
  record.streamId = work.stream_id;
  record.gridX = work.grid[0];
  record.gridY = work.grid[1];
  record.gridZ = work.grid[2];
  record.blockX = work.block[0];
  record.blockY = work.block[1];
  record.blockZ = work.block[2];
  record.dynamicSharedMemory = work.dynamic_shared_memory;
  record.sharedMemoryExecuted = static_cast<uint32_t>(work.dynamic_shared_memory);
  record.correlationId = work.correlation_id;
  record.gridId = next_grid_id.fetch_add(1);
  record.name = work.name;  // the runtime interns names forever
  record.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
  record.graphId = work.graph_id;
  record.graphNodeId = work.graph_node_id;
  record.clusterX = record.clusterY = record.clusterZ = 1;
  QueueDeviceRecord(record, work.end_ns);
}

void RecordMemcpy(const SimDeviceWork& work) {
  if (!KindEnabled(CUPTI_ACTIVITY_KIND_MEMCPY)) return;
  MemcpyRecord record;
  std::memset(&record, 0, sizeof(record));
  record.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  record.copyKind = static_cast<uint8_t>(work.copy_kind);
  record.srcKind = static_cast<uint8_t>(work.src_kind);
  record.dstKind = static_cast<uint8_t>(work.dst_kind);
  record.flags = work.is_async ? CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC : 0;
  record.bytes = work.bytes;
  record.start = ToCuptiTime(work.start_ns);
  record.end = ToCuptiTime(work.end_ns);
  record.deviceId = work.device;
  record.contextId = work.context_id;
  record.streamId = work.stream_id;
  record.correlationId = work.correlation_id;
  record.runtimeCorrelationId = work.correlation_id;
  record.graphId = work.graph_id;
  record.graphNodeId = work.graph_node_id;
#ifndef SIM_CUPTI_CUDA12
  record.copyCount = 1;  // Memcpy6 only
#endif
  QueueDeviceRecord(record, work.end_ns);
}

void RecordMemset(const SimDeviceWork& work) {
  if (!KindEnabled(CUPTI_ACTIVITY_KIND_MEMSET)) return;
  MemsetRecord record;
  std::memset(&record, 0, sizeof(record));
  record.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  record.value = work.memset_value;
  record.bytes = work.bytes;
  record.start = ToCuptiTime(work.start_ns);
  record.end = ToCuptiTime(work.end_ns);
  record.deviceId = work.device;
  record.contextId = work.context_id;
  record.streamId = work.stream_id;
  record.correlationId = work.correlation_id;
  record.flags = work.is_async ? CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC : 0;
  record.memoryKind = static_cast<uint16_t>(work.dst_kind);
  record.graphId = work.graph_id;
  record.graphNodeId = work.graph_node_id;
  QueueDeviceRecord(record, work.end_ns);
}

}  // namespace

void RecordApiCall(const SimApiCallEvent& event) {
  CUpti_ActivityKind kind =
      event.domain == kSimDomainDriver ? CUPTI_ACTIVITY_KIND_DRIVER : CUPTI_ACTIVITY_KIND_RUNTIME;
  if (!KindEnabled(kind)) return;
  // Like CUPTI: the external-correlation records come before the API record they tag.
  if (KindEnabled(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)) {
    ForEachExternalId(EmitExternalCorrelation, event.correlation_id);
  }
  CUpti_ActivityAPI record;
  std::memset(&record, 0, sizeof(record));
  record.kind = kind;
  record.cbid = event.cbid;
  record.start = ToCuptiTime(event.start_ns);
  record.end = ToCuptiTime(event.end_ns);
  record.processId = static_cast<uint32_t>(getpid());
  record.threadId = CurrentThreadId();
  record.correlationId = event.correlation_id;
  record.returnValue = static_cast<uint32_t>(event.return_value);
  Queue(record);
}

void RecordDeviceWork(const SimDeviceWork& work) {
  switch (work.kind) {
    case kSimWorkKernel: return RecordKernel(work);
    case kSimWorkMemcpy: return RecordMemcpy(work);
    case kSimWorkMemset: return RecordMemset(work);
    default: return;
  }
}

void RecordSync(const SimSyncEvent& event) {
  if (!KindEnabled(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)) return;
  SynchronizationRecord record;
  std::memset(&record, 0, sizeof(record));
  record.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  record.type = static_cast<CUpti_ActivitySynchronizationType>(event.type);
  record.start = ToCuptiTime(event.start_ns);
  record.end = ToCuptiTime(event.end_ns);
  record.correlationId = event.correlation_id;
  record.contextId = event.context_id;
  record.streamId = event.stream_id;
  record.cudaEventId = event.event_id;
#ifndef SIM_CUPTI_CUDA12
  record.returnValue = static_cast<uint32_t>(event.return_value);  // Synchronization2 only
#endif
  Queue(record);
}

}  // namespace simcupti
