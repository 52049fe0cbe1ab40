#include "agent/cupti/activity_mapping.h"

#include <cupti_activity.h>

namespace prof {

trace::CopyKind CopyKindOfCupti(uint32_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return trace::COPY_KIND_HOST_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return trace::COPY_KIND_DEVICE_TO_HOST;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return trace::COPY_KIND_DEVICE_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return trace::COPY_KIND_HOST_TO_HOST;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return trace::COPY_KIND_PEER_TO_PEER;
    default: return trace::COPY_KIND_UNKNOWN;
  }
}

trace::MemoryKind MemoryKindOfCupti(uint32_t memory_kind) {
  switch (memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return trace::MEMORY_KIND_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return trace::MEMORY_KIND_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return trace::MEMORY_KIND_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return trace::MEMORY_KIND_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return trace::MEMORY_KIND_MANAGED;
    default: return trace::MEMORY_KIND_UNKNOWN;
  }
}

trace::SynchronizationKind SynchronizationKindOfCupti(uint32_t type) {
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
      return trace::SYNCHRONIZATION_KIND_EVENT;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
      return trace::SYNCHRONIZATION_KIND_STREAM_WAIT_EVENT;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
      return trace::SYNCHRONIZATION_KIND_STREAM;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
      return trace::SYNCHRONIZATION_KIND_CONTEXT;
    default: return trace::SYNCHRONIZATION_KIND_UNKNOWN;
  }
}

}  // namespace prof
