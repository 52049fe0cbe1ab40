// The column buffers of one chunk's blocks (ApiCalls, HostRanges, ..., Synchronizations of
// proto/trace.proto), as ChunkEncoder fills them, and how a block is sized and written.
// Internal to ChunkEncoder (chunk_encoder.cc); no libprotobuf.
//
// Each block's columns and their list in field-number order, Fields(block, visit), are
// generated from trace.proto (proto/trace_columns.h); BlockSize, PutBlock, ClearBlock and
// SettleBlock walk that list, so a column is never forgotten by one of them.
#ifndef PROF_PROTO_CHUNK_BLOCKS_H_
#define PROF_PROTO_CHUNK_BLOCKS_H_

#include <cstdint>

#include "proto/events.h"
#include "proto/run_column.h"
#include "proto/schema_enums.h"
#include "proto/trace_columns.h"
#include "proto/trace_fields.h"
#include "proto/wire_format.h"

namespace prof::chunk_blocks {

// A block column's companion holding its run lengths is numbered this much higher
// (trace.proto, "Run-length columns"); a block's own columns are numbered below it.
inline constexpr uint32_t kRunsNumberOffset = 16;

// Wrapping difference, so any two uint64 values round-trip through a sint64 delta.
inline int64_t TakeDelta(uint64_t value, uint64_t* previous) {
  const int64_t delta = static_cast<int64_t>(value - *previous);
  *previous = value;
  return delta;
}

// trace::SparseColumn: values for a few rows; index_delta is the row minus the previous
// value's row (the first is the row itself). Rows must increase. Both lists may be written
// as runs (a launch's stream on every row: index deltas of 1, one value).
struct SparseColumn {
  using F = field::SparseColumn;
  RunColumn index_delta;
  RunColumn value;
  RunColumn index_delta_runs;
  RunColumn value_runs;
  uint32_t last_row = 0;

  // Room for `values` more Appends (RunColumn::Reserve); the runs are written at settling.
  void Reserve(size_t values) {
    index_delta.Reserve(values);
    value.Reserve(values);
  }
  void Append(uint32_t row, uint64_t v) {
    index_delta.AddRepeating(row - last_row);
    value.AddRepeating(v);
    last_row = row;
  }
  void SettleRuns(wire::PackedColumn* scratch) {
    index_delta.SettleRuns(F::kIndexDelta, F::kIndexDeltaRuns, &index_delta_runs, scratch);
    value.SettleRuns(F::kValue, F::kValueRuns, &value_runs, scratch);
  }
  size_t BodySize() const {
    return wire::PackedFieldSize(F::kIndexDelta, index_delta.packed()) +
           wire::PackedFieldSize(F::kValue, value.packed()) +
           wire::PackedFieldSize(F::kIndexDeltaRuns, index_delta_runs.packed()) +
           wire::PackedFieldSize(F::kValueRuns, value_runs.packed());
  }
  void clear() {
    index_delta.clear();
    value.clear();
    index_delta_runs.clear();
    value_runs.clear();
    last_row = 0;
  }
};

// Field size of a column within its block; 0 for an empty one (not written).
inline size_t ColumnFieldSize(uint32_t number, const RunColumn& column) {
  return wire::PackedFieldSize(number, column.packed());
}
inline size_t ColumnFieldSize(uint32_t number, const SparseColumn& column) {
  return column.value.count() == 0 ? 0 : wire::LengthDelimitedFieldSize(number, column.BodySize());
}
inline void PutColumn(wire::Buffer* out, uint32_t number, const RunColumn& column) {
  wire::PutPackedField(out, number, column.packed());
}
inline void PutColumn(wire::Buffer* out, uint32_t number, const SparseColumn& column) {
  if (column.value.count() == 0) return;
  using F = field::SparseColumn;
  wire::PutLengthDelimitedHeader(out, number, column.BodySize());
  wire::PutPackedField(out, F::kIndexDelta, column.index_delta.packed());
  wire::PutPackedField(out, F::kValue, column.value.packed());
  wire::PutPackedField(out, F::kIndexDeltaRuns, column.index_delta_runs.packed());
  wire::PutPackedField(out, F::kValueRuns, column.value_runs.packed());
}

// SettleBlock's visit of one column: a block column is kept by number, to meet its
// companion; a sparse column settles its own lists.
inline void SettleVisit(uint32_t number, RunColumn& column, RunColumn** by_number,
                        wire::PackedColumn*) {
  if (number < 2 * kRunsNumberOffset) by_number[number] = &column;
}
inline void SettleVisit(uint32_t, SparseColumn& column, RunColumn**, wire::PackedColumn* scratch) {
  column.SettleRuns(scratch);
}

// Once per chunk, before the block is sized: each column with a `_runs` companion takes
// its form (RunColumn::SettleRuns; `scratch` is the encoder's spare column).
template <typename Block>
void SettleBlock(Block* block, wire::PackedColumn* scratch) {
  if (block->rows == 0) return;
  RunColumn* by_number[2 * kRunsNumberOffset] = {};
  Block::Fields(*block, [&by_number, scratch](uint32_t number, auto& column) {
    SettleVisit(number, column, by_number, scratch);
  });
  for (uint32_t number = 1; number < kRunsNumberOffset; ++number) {
    RunColumn* lengths = by_number[number + kRunsNumberOffset];
    if (by_number[number] != nullptr && lengths != nullptr) {
      by_number[number]->SettleRuns(number, number + kRunsNumberOffset, lengths, scratch);
    }
  }
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
  block->deltas = {};
  block->rows = 0;
  block->room_rows = 0;
}

// Rows a block's columns make room for at once: the capacity check of a value's append is
// paid once per this many rows (not once per value, ~4 instructions each; callgrind, issue
// 26), for ~640 bytes of capacity per column a block uses (kept across chunks).
inline constexpr uint32_t kRoomRows = 64;

// Room in each column a row appends to (not the `_runs` companions: settling writes them)
// for kRoomRows more rows.
template <typename Block>
__attribute__((noinline)) void MakeRoom(Block* block) {
  Block::Fields(*block, [](uint32_t number, auto& column) {
    if (number < kRunsNumberOffset) column.Reserve(kRoomRows);
  });
  block->room_rows = block->rows + kRoomRows;
}

// Starts a row of `block` and returns its index. Each column gets at most one value per
// row, so after MakeRoom the row's appends need no capacity check of their own.
template <typename Block>
uint32_t NewRow(Block* block) {
  if (block->rows == block->room_rows) MakeRoom(block);
  return block->rows++;
}

// A host-range block's kind column trails its rows where they are operators': the encoder
// writes no kind for an operator (every operator's is the same; appending it was ~14
// instructions an operator, callgrind, issue 26), and this writes the kinds of the operator
// rows before `row` when another kind comes, and before the block settles.
template <typename Block>
void WriteOperatorKinds(Block* ranges, uint32_t row) {
  ranges->kind.AddRepeatingTimes(wire::Int32Bits(schema::RANGE_KIND_OPERATOR),
                                 row - ranges->kind.count(), kRoomRows);
}

// The encoder's previous value of each delta-encoded column of a block (TakeDelta).
struct StartDeltas {
  uint64_t start = 0;
};
struct StartCorrelationDeltas {
  uint64_t start = 0, correlation = 0;
};
struct StepDeltas {
  uint64_t start = 0, step_number = 0;
};
struct NcclDeltas {
  uint64_t start = 0, sequence = 0;
};
struct MemoryDeltas {
  uint64_t time = 0, address = 0;
};

// A block as the encoder fills it: its columns, one member per field of trace.proto's
// message (generated: proto/trace_columns.h), the delta state and the row count.
template <template <typename, typename> class Columns, typename DeltaState>
struct EncoderBlock : Columns<RunColumn, SparseColumn> {
  DeltaState deltas;
  uint32_t rows = 0;
  uint32_t room_rows = 0;  // rows the columns have room for (NewRow)
};

using ApiCalls = EncoderBlock<block_columns::ApiCalls, StartCorrelationDeltas>;
using HostRanges = EncoderBlock<block_columns::HostRanges, StartDeltas>;
using Steps = EncoderBlock<block_columns::Steps, StepDeltas>;
using NcclCalls = EncoderBlock<block_columns::NcclCalls, NcclDeltas>;
using MemoryEvents = EncoderBlock<block_columns::MemoryEvents, MemoryDeltas>;
using Kernels = EncoderBlock<block_columns::Kernels, StartCorrelationDeltas>;
using Memcpys = EncoderBlock<block_columns::Memcpys, StartCorrelationDeltas>;
using Memsets = EncoderBlock<block_columns::Memsets, StartCorrelationDeltas>;
using Synchronizations = EncoderBlock<block_columns::Synchronizations, StartCorrelationDeltas>;

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
  void SettleRuns(wire::PackedColumn* scratch) {
    SettleBlock(&api, scratch);
    WriteOperatorKinds(&ranges, ranges.rows);
    SettleBlock(&ranges, scratch);
    SettleBlock(&steps, scratch);
    SettleBlock(&nccl, scratch);
    SettleBlock(&memory, scratch);
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
  void SettleRuns(wire::PackedColumn* scratch) {
    SettleBlock(&kernels, scratch);
    SettleBlock(&memcpys, scratch);
    SettleBlock(&memsets, scratch);
    SettleBlock(&syncs, scratch);
  }
};

}  // namespace prof::chunk_blocks

#endif  // PROF_PROTO_CHUNK_BLOCKS_H_
