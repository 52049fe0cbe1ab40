// The stream blocks of a chunk (trace.proto's StreamEvents) to events.
#include "proto/block_decoder.h"

#include <optional>
#include <vector>

namespace prof::block_decoding {

using columns::ApplyDelta;
using columns::ColumnCursor;
using columns::PlainValues;
using columns::SparseRows;

void BlockDecoder::Kernels(const StreamKey& where, const trace::Kernels& kernels) {
  const int rows = Rows(kernels);
  if (rows < 0) return;
  std::vector<SparseCursor> sparse = SparseColumns(kernels, rows);
  SparseCursor& graph = sparse[trace::Kernels::kGraphIdFieldNumber];
  SparseCursor& node = sparse[trace::Kernels::kGraphNodeIdFieldNumber];
  SparseCursor& launch = sparse[trace::Kernels::kLaunchTypeFieldNumber];
  SparseRows<3> sparse_rows({&graph, &node, &launch});
  ColumnCursor<uint32_t> config(kernels.kernel_config_id(), kernels.kernel_config_id_runs());
  ColumnCursor<int64_t> correlation_delta(kernels.correlation_id_delta(),
                                          kernels.correlation_id_delta_runs());
  const int64_t* start_delta = PlainValues(kernels.start_delta_ns(), rows);
  const uint64_t* duration = PlainValues(kernels.duration_ns(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  KernelEvent event;
  event.where = where;
  const auto set_sparse = [&](uint32_t row) {
    uint64_t value = 0;
    event.graph_id = graph.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.graph_node_id = node.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.launch_type = launch.At(row, &value)
                            ? std::optional<uint32_t>(static_cast<uint32_t>(value))
                            : std::nullopt;
  };
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(start_delta[row], &start);
    event.duration_ns = duration[row];
    event.config = config.Next();
    event.correlation_id = ApplyDelta(correlation_delta.Next(), &correlation);
    sparse_rows.At(row, set_sparse);
    sink_->OnKernel(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Memcpys(const StreamKey& where, const trace::Memcpys& copies) {
  const int rows = Rows(copies);
  if (rows < 0) return;
  ColumnCursor<int> copy_kind(copies.copy_kind(), copies.copy_kind_runs());
  ColumnCursor<int> source(copies.source_kind(), copies.source_kind_runs());
  ColumnCursor<int> destination(copies.destination_kind(), copies.destination_kind_runs());
  ColumnCursor<int64_t> correlation_delta(copies.correlation_id_delta(),
                                          copies.correlation_id_delta_runs());
  const auto* start_delta_ns = PlainValues(copies.start_delta_ns(), rows);
  const auto* duration_ns = PlainValues(copies.duration_ns(), rows);
  const auto* bytes = PlainValues(copies.bytes(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  MemcpyEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(start_delta_ns[row], &start);
    event.duration_ns = duration_ns[row];
    event.bytes = bytes[row];
    event.copy_kind = static_cast<schema::CopyKind>(copy_kind.Next());
    event.source_kind = static_cast<schema::MemoryKind>(source.Next());
    event.destination_kind = static_cast<schema::MemoryKind>(destination.Next());
    event.correlation_id = ApplyDelta(correlation_delta.Next(), &correlation);
    sink_->OnMemcpy(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Memsets(const StreamKey& where, const trace::Memsets& memsets) {
  const int rows = Rows(memsets);
  if (rows < 0) return;
  ColumnCursor<uint32_t> value(memsets.value(), memsets.value_runs());
  ColumnCursor<int64_t> correlation_delta(memsets.correlation_id_delta(),
                                          memsets.correlation_id_delta_runs());
  const auto* start_delta_ns = PlainValues(memsets.start_delta_ns(), rows);
  const auto* duration_ns = PlainValues(memsets.duration_ns(), rows);
  const auto* bytes = PlainValues(memsets.bytes(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  MemsetEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(start_delta_ns[row], &start);
    event.duration_ns = duration_ns[row];
    event.bytes = bytes[row];
    event.value = value.Next();
    event.correlation_id = ApplyDelta(correlation_delta.Next(), &correlation);
    sink_->OnMemset(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Synchronizations(const StreamKey& where, const trace::Synchronizations& syncs) {
  const int rows = Rows(syncs);
  if (rows < 0) return;
  std::vector<SparseCursor> sparse = SparseColumns(syncs, rows);
  SparseCursor& waited = sparse[trace::Synchronizations::kEventIdFieldNumber];
  ColumnCursor<int> kind(syncs.kind(), syncs.kind_runs());
  ColumnCursor<int64_t> correlation_delta(syncs.correlation_id_delta(),
                                          syncs.correlation_id_delta_runs());
  const auto* start_delta_ns = PlainValues(syncs.start_delta_ns(), rows);
  const auto* duration_ns = PlainValues(syncs.duration_ns(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  SynchronizationEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(start_delta_ns[row], &start);
    event.duration_ns = duration_ns[row];
    event.kind = static_cast<schema::SynchronizationKind>(kind.Next());
    event.correlation_id = ApplyDelta(correlation_delta.Next(), &correlation);
    event.event_id = waited.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    sink_->OnSynchronization(event);
  }
  stats_.events += rows;
}

}  // namespace prof::block_decoding
