#include "agent/cupti/activity_converter.h"

#include "agent/cupti/activity_mapping.h"
#include "agent/cupti/record_layouts.h"  // why reading 12.x records through 13's structs is right

namespace prof {

void ActivityConverter::ConvertBuffer(const ActivityBuffer& buffer, WindowRouter& router,
                                      ConversionCounts* counts) {
  CUpti_Activity* record = nullptr;
  while (true) {
    const CUptiResult result = next_record_(buffer.data, buffer.valid_size, &record);
    if (result == CUPTI_ERROR_MAX_LIMIT_REACHED) return;  // the end of the buffer
    if (result != CUPTI_SUCCESS || !record) {
      // An unknown or damaged record: its size is unknown, so nothing after it is read.
      ++counts->corrupt_buffers;
      return;
    }
    Convert(*record, router, counts);
  }
}

void ActivityConverter::Convert(const CUpti_Activity& record, WindowRouter& router,
                                ConversionCounts* counts) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return AddKernel(reinterpret_cast<const CUpti_ActivityKernel10&>(record), router, counts);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return AddMemcpy(reinterpret_cast<const CUpti_ActivityMemcpy6&>(record), router, counts);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return AddMemset(reinterpret_cast<const CUpti_ActivityMemset4&>(record), router, counts);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return AddSynchronization(reinterpret_cast<const CUpti_ActivitySynchronization2&>(record),
                                router, counts);
    default: return;  // kinds the adapter did not enable (or another client's)
  }
}

DeviceWindow* ActivityConverter::WindowOf(uint32_t correlation_id, uint64_t start, uint64_t end,
                                          WindowRouter& router, ConversionCounts* counts) {
  if (start == CUPTI_TIMESTAMP_UNKNOWN || end == CUPTI_TIMESTAMP_UNKNOWN || end < start) {
    ++counts->incomplete;
    return nullptr;
  }
  const uint64_t host_start =
      static_cast<uint64_t>(static_cast<int64_t>(start) - cupti_minus_host_ns_);
  DeviceWindow* window = router.WindowFor(correlation_id, host_start);
  if (!window) {
    ++counts->unrouted;
    return nullptr;
  }
  ++counts->converted;
  return window;
}

StreamKey ActivityConverter::KeyOf(uint32_t device, uint32_t context, uint32_t stream) {
  device_of_context_[context] = device;
  StreamKey key;
  key.device = device;
  key.context = context;
  key.stream = stream;
  key.clock = schema::CLOCK_DOMAIN_CUPTI;
  return key;
}

uint32_t ActivityConverter::DeviceOfContext(uint32_t context) const {
  auto it = device_of_context_.find(context);
  return it == device_of_context_.end() ? 0 : it->second;
}

void ActivityConverter::AddKernel(const CUpti_ActivityKernel10& record, WindowRouter& router,
                                  ConversionCounts* counts) {
  DeviceWindow* window = WindowOf(record.correlationId, record.start, record.end, router, counts);
  if (!window) return;
  KernelConfigValue config;
  // Interned by content, not by pointer: CUPTI may reuse a name's memory after a module
  // unloads. The file's table makes this one hash lookup per record.
  if (record.name) config.name = window->InternString(record.name);
  config.grid[0] = static_cast<uint32_t>(record.gridX);
  config.grid[1] = static_cast<uint32_t>(record.gridY);
  config.grid[2] = static_cast<uint32_t>(record.gridZ);
  config.block[0] = static_cast<uint32_t>(record.blockX);
  config.block[1] = static_cast<uint32_t>(record.blockY);
  config.block[2] = static_cast<uint32_t>(record.blockZ);
  config.static_shared_memory = static_cast<uint32_t>(record.staticSharedMemory);
  config.dynamic_shared_memory = static_cast<uint32_t>(record.dynamicSharedMemory);
  config.registers_per_thread = record.registersPerThread;
  KernelEvent kernel;
  kernel.where = KeyOf(record.deviceId, record.contextId, record.streamId);
  kernel.start_ns = record.start;
  kernel.duration_ns = record.end - record.start;
  kernel.config = window->InternKernelConfig(config);
  kernel.correlation_id = record.correlationId;
  if (record.graphId != 0) {
    kernel.graph_id = record.graphId;
    kernel.graph_node_id = record.graphNodeId;
  }
  if (record.launchType != CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR) {
    kernel.launch_type = record.launchType;
  }
  window->AddKernel(kernel);
}

void ActivityConverter::AddMemcpy(const CUpti_ActivityMemcpy6& record, WindowRouter& router,
                                  ConversionCounts* counts) {
  // correlationId is the driver call's; the runtime call (what the hooks record) has its
  // own id in runtimeCorrelationId when the copy came through the runtime.
  const uint32_t correlation_id =
      record.runtimeCorrelationId != 0 ? record.runtimeCorrelationId : record.correlationId;
  DeviceWindow* window = WindowOf(correlation_id, record.start, record.end, router, counts);
  if (!window) return;
  MemcpyEvent copy;
  copy.where = KeyOf(record.deviceId, record.contextId, record.streamId);
  copy.start_ns = record.start;
  copy.duration_ns = record.end - record.start;
  copy.bytes = record.bytes;
  copy.copy_kind = CopyKindOfCupti(record.copyKind);
  copy.source_kind = MemoryKindOfCupti(record.srcKind);
  copy.destination_kind = MemoryKindOfCupti(record.dstKind);
  copy.correlation_id = correlation_id;
  window->AddMemcpy(copy);
}

void ActivityConverter::AddMemset(const CUpti_ActivityMemset4& record, WindowRouter& router,
                                  ConversionCounts* counts) {
  DeviceWindow* window = WindowOf(record.correlationId, record.start, record.end, router, counts);
  if (!window) return;
  MemsetEvent memset;
  memset.where = KeyOf(record.deviceId, record.contextId, record.streamId);
  memset.start_ns = record.start;
  memset.duration_ns = record.end - record.start;
  memset.bytes = record.bytes;
  memset.value = record.value;
  memset.correlation_id = record.correlationId;
  window->AddMemset(memset);
}

void ActivityConverter::AddSynchronization(const CUpti_ActivitySynchronization2& record,
                                           WindowRouter& router, ConversionCounts* counts) {
  DeviceWindow* window = WindowOf(record.correlationId, record.start, record.end, router, counts);
  if (!window) return;
  SynchronizationEvent sync;
  sync.where.device = DeviceOfContext(record.contextId);
  sync.where.context = record.contextId;
  sync.where.stream = record.streamId;
  sync.where.clock = schema::CLOCK_DOMAIN_CUPTI;
  sync.start_ns = record.start;
  sync.duration_ns = record.end - record.start;
  sync.kind = SynchronizationKindOfCupti(record.type);
  sync.correlation_id = record.correlationId;
  if (sync.kind == schema::SYNCHRONIZATION_KIND_EVENT ||
      sync.kind == schema::SYNCHRONIZATION_KIND_STREAM_WAIT_EVENT) {
    sync.event_id = record.cudaEventId;
  }
  window->AddSynchronization(sync);
}

}  // namespace prof
