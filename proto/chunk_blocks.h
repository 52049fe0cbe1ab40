// The column buffers of one chunk's blocks (ApiCalls, HostRanges, ..., Synchronizations of
// proto/trace.proto), as ChunkEncoder fills them, and how a block is sized and written.
// Internal to ChunkEncoder (chunk_encoder.cc); no libprotobuf.
//
// Each block lists its columns once, in field-number order, in a static Fields(block,
// visit);
// BlockSize and PutBlock walk that list, so a column is never forgotten by one of them.
#ifndef PROF_PROTO_CHUNK_BLOCKS_H_
#define PROF_PROTO_CHUNK_BLOCKS_H_

#include <cstdint>

#include "proto/events.h"
#include "proto/schema_enums.h"
#include "proto/trace_fields.h"
#include "proto/wire_format.h"

namespace prof::chunk_blocks {

using wire::PackedColumn;

// Wrapping difference, so any two uint64 values round-trip through a sint64 delta.
inline int64_t TakeDelta(uint64_t value, uint64_t* previous) {
  const int64_t delta = static_cast<int64_t>(value - *previous);
  *previous = value;
  return delta;
}

// trace::SparseColumn: values for a few rows; index_delta is the row minus the previous
// value's row (the first is the row itself). Rows must increase.
struct SparseColumn {
  PackedColumn index_delta;
  PackedColumn value;
  uint32_t last_row = 0;

  void Append(uint32_t row, uint64_t v) {
    index_delta.AddUnsigned(row - last_row);
    value.AddUnsigned(v);
    last_row = row;
  }
  size_t BodySize() const {
    return wire::PackedFieldSize(field::SparseColumn::kIndexDelta, index_delta) +
           wire::PackedFieldSize(field::SparseColumn::kValue, value);
  }
  void clear() {
    index_delta.clear();
    value.clear();
    last_row = 0;
  }
};

// Field size of a column within its block; 0 for an empty one (not written).
inline size_t ColumnFieldSize(uint32_t number, const PackedColumn& column) {
  return wire::PackedFieldSize(number, column);
}
inline size_t ColumnFieldSize(uint32_t number, const SparseColumn& column) {
  return column.value.count() == 0 ? 0
                                   : wire::LengthDelimitedFieldSize(number, column.BodySize());
}
inline void PutColumn(wire::Buffer* out, uint32_t number, const PackedColumn& column) {
  wire::PutPackedField(out, number, column);
}
inline void PutColumn(wire::Buffer* out, uint32_t number, const SparseColumn& column) {
  if (column.value.count() == 0) return;
  wire::PutLengthDelimitedHeader(out, number, column.BodySize());
  wire::PutPackedField(out, field::SparseColumn::kIndexDelta, column.index_delta);
  wire::PutPackedField(out, field::SparseColumn::kValue, column.value);
}

// Size of a block's body: the sum of its columns' fields.
template <typename Block>
size_t BlockSize(const Block& block) {
  size_t size = 0;
  Block::Fields(block, [&size](uint32_t number, const auto& column) {
    size += ColumnFieldSize(number, column);
  });
  return size;
}

// Writes `block` as field `number` of its group; nothing when it has no rows.
template <typename Block>
void PutBlock(wire::Buffer* out, uint32_t number, const Block& block) {
  if (block.rows == 0) return;
  wire::PutLengthDelimitedHeader(out, number, BlockSize(block));
  Block::Fields(block, [out](uint32_t n, const auto& column) { PutColumn(out, n, column); });
}

template <typename Block>
size_t BlockFieldSize(uint32_t number, const Block& block) {
  return block.rows == 0 ? 0 : wire::LengthDelimitedFieldSize(number, BlockSize(block));
}

// Clears every column and the delta state, keeping the buffers' capacity.
template <typename Block>
void ClearBlock(Block* block) {
  Block::Fields(*block, [](uint32_t, auto& column) { column.clear(); });
  *block->Deltas() = {};
  block->rows = 0;
}

struct ApiCalls {
  using F = field::ApiCalls;
  PackedColumn start, duration, name, correlation;
  SparseColumn domain, status, stream, bytes, copy_kind, kernel_config, call_stack;
  struct { uint64_t start = 0, correlation = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kNameId, self.name);
    visit(F::kCorrelationIdDelta, self.correlation);
    visit(F::kDomain, self.domain);
    visit(F::kStatus, self.status);
    visit(F::kStream, self.stream);
    visit(F::kBytes, self.bytes);
    visit(F::kCopyKind, self.copy_kind);
    visit(F::kKernelConfigId, self.kernel_config);
    visit(F::kCallStackId, self.call_stack);
  }
};

struct HostRanges {
  using F = field::HostRanges;
  PackedColumn start, duration, name, kind;
  SparseColumn domain;
  SparseColumn shapes, dtypes, source;  // operator details (string ids)
  struct { uint64_t start = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kNameId, self.name);
    visit(F::kKind, self.kind);
    visit(F::kDomainNameId, self.domain);
    visit(F::kShapesId, self.shapes);
    visit(F::kDtypesId, self.dtypes);
    visit(F::kSourceId, self.source);
  }
};

struct Steps {
  using F = field::Steps;
  PackedColumn start, duration, step_number, sample_count;
  struct { uint64_t start = 0, step_number = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kStepNumberDelta, self.step_number);
    visit(F::kSampleCount, self.sample_count);
  }
};

struct NcclCalls {
  using F = field::NcclCalls;
  PackedColumn start, duration, operation, count, data_type, bytes, communicator, sequence,
      stream;
  SparseColumn root_or_peer, reduction_op;
  struct { uint64_t start = 0, sequence = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kOperation, self.operation);
    visit(F::kCount, self.count);
    visit(F::kDataType, self.data_type);
    visit(F::kBytes, self.bytes);
    visit(F::kCommunicatorId, self.communicator);
    visit(F::kSequenceNumberDelta, self.sequence);
    visit(F::kStream, self.stream);
    visit(F::kRootOrPeer, self.root_or_peer);
    visit(F::kReductionOp, self.reduction_op);
  }
};

struct MemoryEvents {
  using F = field::MemoryEvents;
  PackedColumn time, operation, address, bytes, device, kind;
  SparseColumn stream, call_stack;
  struct { uint64_t time = 0, address = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kTimeDeltaNs, self.time);
    visit(F::kOperation, self.operation);
    visit(F::kAddressDelta, self.address);
    visit(F::kBytes, self.bytes);
    visit(F::kDevice, self.device);
    visit(F::kKind, self.kind);
    visit(F::kStream, self.stream);
    visit(F::kCallStackId, self.call_stack);
  }
};

struct Kernels {
  using F = field::Kernels;
  PackedColumn start, duration, config, correlation;
  SparseColumn graph, graph_node, launch_type;
  struct { uint64_t start = 0, correlation = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kKernelConfigId, self.config);
    visit(F::kCorrelationIdDelta, self.correlation);
    visit(F::kGraphId, self.graph);
    visit(F::kGraphNodeId, self.graph_node);
    visit(F::kLaunchType, self.launch_type);
  }
};

struct Memcpys {
  using F = field::Memcpys;
  PackedColumn start, duration, bytes, copy_kind, source_kind, destination_kind, correlation;
  struct { uint64_t start = 0, correlation = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kBytes, self.bytes);
    visit(F::kCopyKind, self.copy_kind);
    visit(F::kSourceKind, self.source_kind);
    visit(F::kDestinationKind, self.destination_kind);
    visit(F::kCorrelationIdDelta, self.correlation);
  }
};

struct Memsets {
  using F = field::Memsets;
  PackedColumn start, duration, bytes, value, correlation;
  struct { uint64_t start = 0, correlation = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kBytes, self.bytes);
    visit(F::kValue, self.value);
    visit(F::kCorrelationIdDelta, self.correlation);
  }
};

struct Synchronizations {
  using F = field::Synchronizations;
  PackedColumn start, duration, kind, correlation;
  SparseColumn event;
  struct { uint64_t start = 0, correlation = 0; } deltas;
  uint32_t rows = 0;
  auto* Deltas() { return &deltas; }
  template <typename Self, typename Visit>
  static void Fields(Self& self, Visit visit) {
    visit(F::kStartDeltaNs, self.start);
    visit(F::kDurationNs, self.duration);
    visit(F::kKind, self.kind);
    visit(F::kCorrelationIdDelta, self.correlation);
    visit(F::kEventId, self.event);
  }
};

// One thread's blocks in the current chunk (trace::ThreadEvents).
struct ThreadBlocks {
  uint64_t thread_id = 0;
  schema::ClockDomain clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  ApiCalls api;
  HostRanges ranges;
  Steps steps;
  NcclCalls nccl;
  MemoryEvents memory;

  void Reset(uint64_t id, schema::ClockDomain domain) {
    thread_id = id;
    clock = domain;
    ClearBlock(&api);
    ClearBlock(&ranges);
    ClearBlock(&steps);
    ClearBlock(&nccl);
    ClearBlock(&memory);
  }
};

// One stream's blocks in the current chunk (trace::StreamEvents).
struct StreamBlocks {
  StreamKey key;
  Kernels kernels;
  Memcpys memcpys;
  Memsets memsets;
  Synchronizations syncs;

  void Reset(const StreamKey& where) {
    key = where;
    ClearBlock(&kernels);
    ClearBlock(&memcpys);
    ClearBlock(&memsets);
    ClearBlock(&syncs);
  }
};

}  // namespace prof::chunk_blocks

#endif  // PROF_PROTO_CHUNK_BLOCKS_H_
