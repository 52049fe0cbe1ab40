// The thread blocks of a chunk (trace.proto's ThreadEvents) to events.
#include "proto/block_decoder.h"

#include <optional>
#include <vector>

namespace prof::block_decoding {

using columns::ApplyDelta;
using columns::ColumnCursor;
using columns::PlainValues;
using columns::SparseRows;

void BlockDecoder::ApiCalls(const trace::ThreadEvents& thread) {
  const trace::ApiCalls& calls = thread.api_calls();
  const int rows = Rows(calls);
  if (rows < 0) return;
  std::vector<SparseCursor> sparse = SparseColumns(calls, rows);
  SparseCursor& domain = sparse[trace::ApiCalls::kDomainFieldNumber];
  SparseCursor& status = sparse[trace::ApiCalls::kStatusFieldNumber];
  SparseCursor& stream = sparse[trace::ApiCalls::kStreamFieldNumber];
  SparseCursor& bytes = sparse[trace::ApiCalls::kBytesFieldNumber];
  SparseCursor& copy_kind = sparse[trace::ApiCalls::kCopyKindFieldNumber];
  SparseCursor& config = sparse[trace::ApiCalls::kKernelConfigIdFieldNumber];
  SparseCursor& stack = sparse[trace::ApiCalls::kCallStackIdFieldNumber];
  SparseRows<7> sparse_rows({&domain, &status, &stream, &bytes, &copy_kind, &config, &stack});
  ColumnCursor<uint32_t> name(calls.name_id(), calls.name_id_runs());
  ColumnCursor<int64_t> correlation_delta(calls.correlation_id_delta(),
                                          calls.correlation_id_delta_runs());
  const int64_t* start_delta = PlainValues(calls.start_delta_ns(), rows);
  const uint64_t* duration = PlainValues(calls.duration_ns(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  ApiCallEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  const auto set_sparse = [&](uint32_t row) {
    uint64_t value = 0;
    event.domain =
        domain.At(row, &value) ? static_cast<schema::ApiDomain>(value) : schema::API_DOMAIN_RUNTIME;
    event.status = status.At(row, &value) ? static_cast<int64_t>(value) : 0;
    event.stream = stream.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.bytes = bytes.At(row, &value) ? value : 0;
    event.copy_kind = copy_kind.At(row, &value) ? static_cast<schema::CopyKind>(value)
                                                : schema::COPY_KIND_UNKNOWN;
    event.kernel_config = config.At(row, &value) ? static_cast<KernelConfigId>(value) : 0;
    event.call_stack = stack.At(row, &value) ? static_cast<CallStackId>(value) : 0;
  };
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(start_delta[row], &start);
    event.duration_ns = duration[row];
    event.name = name.Next();
    event.correlation_id = ApplyDelta(correlation_delta.Next(), &correlation);
    sparse_rows.At(row, set_sparse);
    sink_->OnApiCall(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Ranges(const trace::ThreadEvents& thread) {
  const trace::HostRanges& ranges = thread.ranges();
  const int rows = Rows(ranges);
  if (rows < 0) return;
  std::vector<SparseCursor> sparse = SparseColumns(ranges, rows);
  SparseCursor& domain = sparse[trace::HostRanges::kDomainNameIdFieldNumber];
  SparseCursor& shapes = sparse[trace::HostRanges::kShapesIdFieldNumber];
  SparseCursor& dtypes = sparse[trace::HostRanges::kDtypesIdFieldNumber];
  SparseCursor& source = sparse[trace::HostRanges::kSourceIdFieldNumber];
  SparseRows<4> sparse_rows({&domain, &shapes, &dtypes, &source});
  ColumnCursor<uint32_t> name(ranges.name_id(), ranges.name_id_runs());
  ColumnCursor<int> kind(ranges.kind(), ranges.kind_runs());
  const int64_t* start_delta = PlainValues(ranges.start_delta_ns(), rows);
  const uint64_t* duration = PlainValues(ranges.duration_ns(), rows);
  uint64_t start = 0;
  HostRangeEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  const auto set_sparse = [&](uint32_t row) {
    uint64_t value = 0;
    event.domain = domain.At(row, &value) ? static_cast<StringId>(value) : 0;
    event.shapes = shapes.At(row, &value) ? static_cast<StringId>(value) : 0;
    event.dtypes = dtypes.At(row, &value) ? static_cast<StringId>(value) : 0;
    event.source = source.At(row, &value) ? static_cast<StringId>(value) : 0;
  };
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(start_delta[row], &start);
    event.duration_ns = duration[row];
    event.name = name.Next();
    event.kind = static_cast<schema::RangeKind>(kind.Next());
    sparse_rows.At(row, set_sparse);
    sink_->OnHostRange(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Steps(const trace::ThreadEvents& thread) {
  const trace::Steps& steps = thread.steps();
  const int rows = Rows(steps);
  if (rows < 0) return;
  const auto* start_delta_ns = PlainValues(steps.start_delta_ns(), rows);
  const auto* duration_ns = PlainValues(steps.duration_ns(), rows);
  const auto* step_number_delta = PlainValues(steps.step_number_delta(), rows);
  const auto* sample_count = PlainValues(steps.sample_count(), rows);
  uint64_t start = 0;
  uint64_t number = 0;
  StepEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(start_delta_ns[row], &start);
    event.duration_ns = duration_ns[row];
    event.step_number = static_cast<int64_t>(ApplyDelta(step_number_delta[row], &number));
    event.sample_count = sample_count[row];
    sink_->OnStep(event);
  }
  stats_.events += rows;
}

void BlockDecoder::NcclCalls(const trace::ThreadEvents& thread) {
  const trace::NcclCalls& calls = thread.nccl_calls();
  const int rows = Rows(calls);
  if (rows < 0) return;
  std::vector<SparseCursor> sparse = SparseColumns(calls, rows);
  SparseCursor& root = sparse[trace::NcclCalls::kRootOrPeerFieldNumber];
  SparseCursor& reduction = sparse[trace::NcclCalls::kReductionOpFieldNumber];
  const auto* start_delta_ns = PlainValues(calls.start_delta_ns(), rows);
  const auto* duration_ns = PlainValues(calls.duration_ns(), rows);
  const auto* operation = PlainValues(calls.operation(), rows);
  const auto* count = PlainValues(calls.count(), rows);
  const auto* data_type = PlainValues(calls.data_type(), rows);
  const auto* bytes = PlainValues(calls.bytes(), rows);
  const auto* communicator_id = PlainValues(calls.communicator_id(), rows);
  const auto* sequence_number_delta = PlainValues(calls.sequence_number_delta(), rows);
  const auto* stream = PlainValues(calls.stream(), rows);
  uint64_t start = 0;
  uint64_t sequence = 0;
  NcclCallEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(start_delta_ns[row], &start);
    event.duration_ns = duration_ns[row];
    event.operation = static_cast<schema::NcclOperation>(operation[row]);
    event.count = count[row];
    event.data_type = data_type[row];
    event.bytes = bytes[row];
    event.communicator = communicator_id[row];
    event.sequence_number = static_cast<int64_t>(ApplyDelta(sequence_number_delta[row], &sequence));
    event.stream = stream[row];
    event.root_or_peer =
        root.At(row, &value) ? std::optional<int64_t>(static_cast<int64_t>(value)) : std::nullopt;
    event.reduction_op = reduction.At(row, &value)
                             ? std::optional<uint32_t>(static_cast<uint32_t>(value))
                             : std::nullopt;
    sink_->OnNcclCall(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Memory(const trace::ThreadEvents& thread) {
  const trace::MemoryEvents& memory = thread.memory();
  const int rows = Rows(memory);
  if (rows < 0) return;
  std::vector<SparseCursor> sparse = SparseColumns(memory, rows);
  SparseCursor& stream = sparse[trace::MemoryEvents::kStreamFieldNumber];
  SparseCursor& stack = sparse[trace::MemoryEvents::kCallStackIdFieldNumber];
  const auto* time_delta_ns = PlainValues(memory.time_delta_ns(), rows);
  const auto* operation = PlainValues(memory.operation(), rows);
  const auto* address_delta = PlainValues(memory.address_delta(), rows);
  const auto* bytes = PlainValues(memory.bytes(), rows);
  const auto* device = PlainValues(memory.device(), rows);
  const auto* kind = PlainValues(memory.kind(), rows);
  uint64_t time = 0;
  uint64_t address = 0;
  MemoryEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.time_ns = ApplyDelta(time_delta_ns[row], &time);
    event.operation = static_cast<schema::MemoryOperation>(operation[row]);
    event.address = ApplyDelta(address_delta[row], &address);
    event.bytes = bytes[row];
    event.device = device[row];
    event.kind = static_cast<schema::MemoryKind>(kind[row]);
    event.stream = stream.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.call_stack = stack.At(row, &value) ? static_cast<CallStackId>(value) : 0;
    sink_->OnMemory(event);
  }
  stats_.events += rows;
}

}  // namespace prof::block_decoding
