#include "agent/cupti/activity_mapping.h"

#include <cupti_activity.h>

namespace prof {

schema::CopyKind CopyKindOfCupti(uint32_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return schema::COPY_KIND_HOST_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return schema::COPY_KIND_DEVICE_TO_HOST;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return schema::COPY_KIND_DEVICE_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return schema::COPY_KIND_HOST_TO_HOST;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return schema::COPY_KIND_PEER_TO_PEER;
    default: return schema::COPY_KIND_UNKNOWN;
  }
}

schema::MemoryKind MemoryKindOfCupti(uint32_t memory_kind) {
  switch (memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return schema::MEMORY_KIND_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return schema::MEMORY_KIND_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return schema::MEMORY_KIND_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return schema::MEMORY_KIND_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return schema::MEMORY_KIND_MANAGED;
    default: return schema::MEMORY_KIND_UNKNOWN;
  }
}

schema::SynchronizationKind SynchronizationKindOfCupti(uint32_t type) {
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
      return schema::SYNCHRONIZATION_KIND_EVENT;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
      return schema::SYNCHRONIZATION_KIND_STREAM_WAIT_EVENT;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
      return schema::SYNCHRONIZATION_KIND_STREAM;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
      return schema::SYNCHRONIZATION_KIND_CONTEXT;
    default: return schema::SYNCHRONIZATION_KIND_UNKNOWN;
  }
}

}  // namespace prof
