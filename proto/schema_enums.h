// The enums of proto/trace.proto as plain C++ enums, for code that must not depend on
// libprotobuf: the agent's hooks, records and writer. Same names and numbers as the
// generated ones in prof::trace; proto/schema_mirror_test.cc checks every value against the
// schema, so a change to trace.proto that is not mirrored here fails the build's tests.
#ifndef PROF_PROTO_SCHEMA_ENUMS_H_
#define PROF_PROTO_SCHEMA_ENUMS_H_

#include <cstdint>

namespace prof::schema {

enum ClockDomain : int32_t {
  CLOCK_DOMAIN_HOST_MONOTONIC = 0,  // CLOCK_MONOTONIC of the recording host.
  CLOCK_DOMAIN_CUPTI = 1,  // cuptiGetTimestamp() / CUPTI activity records.
};

enum LossKind : int32_t {
  LOSS_KIND_UNSPECIFIED = 0,
  LOSS_KIND_HOST_BUFFER_FULL = 1,  // a thread's buffer was full (PROF_BUFFER_MB)
  LOSS_KIND_CUPTI_DROPPED = 2,  // CUPTI reported dropped activity records
  LOSS_KIND_CUPTI_BUFFER_LOST = 3,  // a CUPTI buffer could not be processed
  LOSS_KIND_RANGE_UNMATCHED_POP = 4,  // range pop with no open range on that thread
  LOSS_KIND_RANGE_OPEN_AT_END = 5,  // range still open when the window closed
  LOSS_KIND_WRITE_FAILED = 6,  // events lost because a chunk could not be written
  LOSS_KIND_THREAD_LIMIT = 7,  // a thread found no free buffer slot
  LOSS_KIND_CONTROL_RECORD_LOST = 8,  // a step or loss record lost (control ring full)
  LOSS_KIND_HOST_RANGE_DROPPED = 9,  // a range or mark lost (pool and range share full)
  LOSS_KIND_DEVICE_TRACING_PAUSED = 10,  // another CUPTI client held CUPTI (pauses)
  LOSS_KIND_FLIGHT_OVERWRITTEN = 11,  // flight dump: NCCL calls the ring overwrote
  LOSS_KIND_FLIGHT_TORN = 12,  // flight dump: calls being rewritten while copied
};

enum ApiDomain : int32_t {
  API_DOMAIN_RUNTIME = 0,  // CUDA runtime (cuda*)
  API_DOMAIN_DRIVER = 1,  // CUDA driver (cu*)
};

enum RangeKind : int32_t {
  RANGE_KIND_NVTX_PUSH_POP = 0,
  RANGE_KIND_NVTX_START_END = 1,
  RANGE_KIND_USER = 2,  // prof_range_push / RecordEvent
  RANGE_KIND_MODEL_PHASE = 3,  // Dataloader, Forward, Backward, Optimization
  RANGE_KIND_OPERATOR = 4,  // framework operators (PyTorch hooks)
  RANGE_KIND_MARK = 5,  // instant (duration 0): nvtxMark, prof_mark
};

enum NcclOperation : int32_t {
  NCCL_OPERATION_UNSPECIFIED = 0,
  NCCL_OPERATION_ALL_REDUCE = 1,
  NCCL_OPERATION_BROADCAST = 2,
  NCCL_OPERATION_REDUCE = 3,
  NCCL_OPERATION_ALL_GATHER = 4,
  NCCL_OPERATION_REDUCE_SCATTER = 5,
  NCCL_OPERATION_SEND = 6,
  NCCL_OPERATION_RECV = 7,
  NCCL_OPERATION_ALL_TO_ALL = 8,
  NCCL_OPERATION_GROUP_START = 9,
  NCCL_OPERATION_GROUP_END = 10,
  NCCL_OPERATION_GATHER = 11,
  NCCL_OPERATION_SCATTER = 12,
};

enum MemoryKind : int32_t {
  MEMORY_KIND_UNKNOWN = 0,
  MEMORY_KIND_PAGEABLE = 1,
  MEMORY_KIND_PINNED = 2,  // page-locked host memory
  MEMORY_KIND_DEVICE = 3,
  MEMORY_KIND_MANAGED = 4,
  MEMORY_KIND_DEVICE_POOL = 5,  // cudaMallocAsync
  MEMORY_KIND_ARRAY = 6,
};

enum MemoryOperation : int32_t {
  MEMORY_OPERATION_ALLOCATE = 0,
  MEMORY_OPERATION_FREE = 1,
};

enum CopyKind : int32_t {
  COPY_KIND_UNKNOWN = 0,
  COPY_KIND_HOST_TO_DEVICE = 1,
  COPY_KIND_DEVICE_TO_HOST = 2,
  COPY_KIND_HOST_TO_HOST = 3,
  COPY_KIND_DEVICE_TO_DEVICE = 4,
  COPY_KIND_PEER_TO_PEER = 5,
  COPY_KIND_DEFAULT = 6,  // cudaMemcpyDefault: direction inferred from the pointers
};

enum SynchronizationKind : int32_t {
  SYNCHRONIZATION_KIND_UNKNOWN = 0,
  SYNCHRONIZATION_KIND_EVENT = 1,  // cudaEventSynchronize
  SYNCHRONIZATION_KIND_STREAM_WAIT_EVENT = 2,
  SYNCHRONIZATION_KIND_STREAM = 3,  // cudaStreamSynchronize
  SYNCHRONIZATION_KIND_CONTEXT = 4,  // cudaDeviceSynchronize
};

enum WindowOrigin : int32_t {
  WINDOW_ORIGIN_SCHEDULE = 0,
  WINDOW_ORIGIN_API = 1,
  WINDOW_ORIGIN_TRIGGER = 2,
  WINDOW_ORIGIN_PROGRAM = 3,
};
}  // namespace prof::schema

#endif  // PROF_PROTO_SCHEMA_ENUMS_H_
