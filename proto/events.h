// Plain, absolute-valued event records: what ChunkEncoder takes and ChunkDecoder gives.
// They hide the column layout, delta encoding and sparse columns of trace.proto, so the
// agent and the analyzer never touch those. Names are interned ids (StringId); 0 = none.
//
// Plain data, trivially copyable (except the definitions), safe to copy across threads.
// No libprotobuf: the enums are proto/schema_enums.h's, generated from trace.proto.
#ifndef PROF_PROTO_EVENTS_H_
#define PROF_PROTO_EVENTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "proto/schema_enums.h"

namespace prof {

using StringId = uint32_t;
using KernelConfigId = uint32_t;
using CommunicatorId = uint32_t;
using CallStackId = uint32_t;

struct ApiCallEvent {
  uint64_t thread_id = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  StringId name = 0;
  uint64_t correlation_id = 0;
  schema::ApiDomain domain = schema::API_DOMAIN_RUNTIME;
  int64_t status = 0;  // 0: success
  std::optional<uint64_t> stream;
  uint64_t bytes = 0;  // 0: not recorded
  schema::CopyKind copy_kind = schema::COPY_KIND_UNKNOWN;
  KernelConfigId kernel_config = 0;
  CallStackId call_stack = 0;
};

struct HostRangeEvent {
  uint64_t thread_id = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  StringId name = 0;
  schema::RangeKind kind = schema::RANGE_KIND_NVTX_PUSH_POP;
  StringId domain = 0;  // NVTX domain; 0: default domain
  // Operator details; 0: none recorded.
  StringId shapes = 0;  // input shapes text, e.g. "[[8, 3, 32, 32], [16, 3, 3, 3], []]"
  StringId dtypes = 0;  // input dtypes text
  StringId source = 0;  // calling Python line, "file.py:LINE"
};

// StepEvent::sample_count of the step the agent closed when the program ended.
inline constexpr int64_t kStepOpenAtExit = -1;

struct StepEvent {
  uint64_t thread_id = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  int64_t step_number = 0;
  int64_t sample_count = 0;  // > 0: samples; 0: unknown; kStepOpenAtExit: closed at exit
};

// The step still open when a file ended (the program's exit, a terminating signal, a
// flight dump): from `start_ns` to `end_ns`, marked kStepOpenAtExit.
inline StepEvent StepOpenAtEnd(uint64_t thread_id, uint64_t start_ns, uint64_t end_ns,
                               int64_t step_number) {
  StepEvent step;
  step.thread_id = thread_id;
  step.start_ns = start_ns;
  step.duration_ns = end_ns - start_ns;
  step.step_number = step_number;
  step.sample_count = kStepOpenAtExit;
  return step;
}

struct NcclCallEvent {
  uint64_t thread_id = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  schema::NcclOperation operation = schema::NCCL_OPERATION_UNSPECIFIED;
  uint64_t count = 0;
  uint32_t data_type = 0;
  uint64_t bytes = 0;
  CommunicatorId communicator = 0;
  int64_t sequence_number = 0;
  uint64_t stream = 0;
  std::optional<int64_t> root_or_peer;
  std::optional<uint32_t> reduction_op;
};

struct MemoryEvent {
  uint64_t thread_id = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  uint64_t time_ns = 0;
  schema::MemoryOperation operation = schema::MEMORY_OPERATION_ALLOCATE;
  uint64_t address = 0;
  uint64_t bytes = 0;
  int32_t device = -1;
  schema::MemoryKind kind = schema::MEMORY_KIND_UNKNOWN;
  std::optional<uint64_t> stream;
  CallStackId call_stack = 0;
};

// Where a device record ran; the grouping key of StreamEvents.
struct StreamKey {
  uint32_t device = 0;
  uint32_t context = 0;
  uint32_t stream = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_CUPTI;

  bool operator==(const StreamKey& other) const {
    return device == other.device && context == other.context && stream == other.stream &&
           clock == other.clock;
  }
};

struct KernelEvent {
  StreamKey where;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  KernelConfigId config = 0;
  uint64_t correlation_id = 0;
  std::optional<uint64_t> graph_id;
  std::optional<uint64_t> graph_node_id;
  std::optional<uint32_t> launch_type;
};

struct MemcpyEvent {
  StreamKey where;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  uint64_t bytes = 0;
  schema::CopyKind copy_kind = schema::COPY_KIND_UNKNOWN;
  schema::MemoryKind source_kind = schema::MEMORY_KIND_UNKNOWN;
  schema::MemoryKind destination_kind = schema::MEMORY_KIND_UNKNOWN;
  uint64_t correlation_id = 0;
};

struct MemsetEvent {
  StreamKey where;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  uint64_t bytes = 0;
  uint32_t value = 0;
  uint64_t correlation_id = 0;
};

struct SynchronizationEvent {
  StreamKey where;
  uint64_t start_ns = 0;
  uint64_t duration_ns = 0;
  schema::SynchronizationKind kind = schema::SYNCHRONIZATION_KIND_UNKNOWN;
  uint64_t correlation_id = 0;
  std::optional<uint64_t> event_id;
};

// The value of an interned kernel launch configuration (without its id).
struct KernelConfigValue {
  StringId name = 0;
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  uint32_t static_shared_memory = 0;
  uint32_t dynamic_shared_memory = 0;
  uint32_t registers_per_thread = 0;

  bool operator==(const KernelConfigValue& other) const {
    return name == other.name && grid[0] == other.grid[0] && grid[1] == other.grid[1] &&
           grid[2] == other.grid[2] && block[0] == other.block[0] && block[1] == other.block[1] &&
           block[2] == other.block[2] && static_shared_memory == other.static_shared_memory &&
           dynamic_shared_memory == other.dynamic_shared_memory &&
           registers_per_thread == other.registers_per_thread;
  }
  template <typename H>
  friend H AbslHashValue(H hash, const KernelConfigValue& value) {
    return H::combine(std::move(hash), value.name, value.grid[0], value.grid[1], value.grid[2],
                      value.block[0], value.block[1], value.block[2], value.static_shared_memory,
                      value.dynamic_shared_memory, value.registers_per_thread);
  }
};

// Memory in use at a step boundary (Chunk.memory_samples): a device's caching-allocator
// figures, or the process's resident set size with device -1. Host clock.
struct MemorySampleEvent {
  uint64_t time_ns = 0;
  int32_t device = -1;
  uint64_t allocated = 0;
  uint64_t reserved = 0;
  uint64_t peak = 0;
  uint64_t rss = 0;
};

struct CommunicatorValue {
  uint64_t comm_hash = 0;
  int32_t rank = -1;
  int32_t rank_count = 0;
  int32_t device = -1;
  uint64_t init_start_ns = 0;
  uint64_t init_duration_ns = 0;
};

}  // namespace prof

#endif  // PROF_PROTO_EVENTS_H_
