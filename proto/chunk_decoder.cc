#include "proto/chunk_decoder.h"

#include <initializer_list>

#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "proto/columns.h"

namespace prof {
namespace {

using columns::ApplyDelta;
using columns::SparseCursor;

// Decodes the blocks of one chunk, collecting what was malformed.
class BlockDecoder {
 public:
  BlockDecoder(uint64_t sequence, EventSink* sink) : sequence_(sequence), sink_(sink) {}

  void Thread(const trace::ThreadEvents& thread);
  void Stream(const trace::StreamEvents& stream);
  ChunkDecodeStats& stats() { return stats_; }

 private:
  void ApiCalls(const trace::ThreadEvents& thread);
  void Ranges(const trace::ThreadEvents& thread);
  void Steps(const trace::ThreadEvents& thread);
  void NcclCalls(const trace::ThreadEvents& thread);
  void Memory(const trace::ThreadEvents& thread);
  void Kernels(const StreamKey& where, const trace::Kernels& kernels);
  void Memcpys(const StreamKey& where, const trace::Memcpys& copies);
  void Memsets(const StreamKey& where, const trace::Memsets& memsets);
  void Synchronizations(const StreamKey& where, const trace::Synchronizations& syncs);

  // False (and counted) when the columns of a block have different lengths.
  bool Consistent(absl::string_view block, std::initializer_list<int> sizes);
  // A cursor over `column`; an invalid column is counted and reads as empty.
  SparseCursor Sparse(absl::string_view name, const trace::SparseColumn& column, int rows);
  void Problem(std::string description);

  uint64_t sequence_;
  EventSink* sink_;
  ChunkDecodeStats stats_;
  trace::SparseColumn empty_column_;
};

void BlockDecoder::Problem(std::string description) {
  if (stats_.first_problem.empty()) {
    stats_.first_problem = absl::StrFormat("chunk %d: %s", sequence_, description);
  }
}

bool BlockDecoder::Consistent(absl::string_view block, std::initializer_list<int> sizes) {
  const int first = *sizes.begin();
  for (int size : sizes) {
    if (size != first) {
      ++stats_.malformed_blocks;
      Problem(absl::StrFormat("%s block has columns of different lengths", block));
      return false;
    }
  }
  return true;
}

SparseCursor BlockDecoder::Sparse(absl::string_view name, const trace::SparseColumn& column,
                                  int rows) {
  SparseCursor cursor(column, rows);
  if (cursor.valid()) return cursor;
  ++stats_.malformed_columns;
  Problem(absl::StrFormat("sparse column %s is malformed and was ignored", name));
  return SparseCursor(empty_column_, rows);
}

void BlockDecoder::Thread(const trace::ThreadEvents& thread) {
  if (thread.has_api_calls()) ApiCalls(thread);
  if (thread.has_ranges()) Ranges(thread);
  if (thread.has_steps()) Steps(thread);
  if (thread.has_nccl_calls()) NcclCalls(thread);
  if (thread.has_memory()) Memory(thread);
}

void BlockDecoder::ApiCalls(const trace::ThreadEvents& thread) {
  const trace::ApiCalls& calls = thread.api_calls();
  const int rows = calls.name_id_size();
  if (!Consistent("api_calls", {rows, calls.start_delta_ns_size(), calls.duration_ns_size(),
                                calls.correlation_id_delta_size()})) {
    return;
  }
  SparseCursor domain = Sparse("api_calls.domain", calls.domain(), rows);
  SparseCursor status = Sparse("api_calls.status", calls.status(), rows);
  SparseCursor stream = Sparse("api_calls.stream", calls.stream(), rows);
  SparseCursor bytes = Sparse("api_calls.bytes", calls.bytes(), rows);
  SparseCursor copy_kind = Sparse("api_calls.copy_kind", calls.copy_kind(), rows);
  SparseCursor config = Sparse("api_calls.kernel_config_id", calls.kernel_config_id(), rows);
  SparseCursor stack = Sparse("api_calls.call_stack_id", calls.call_stack_id(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  ApiCallEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(calls.start_delta_ns(row), &start);
    event.duration_ns = calls.duration_ns(row);
    event.name = calls.name_id(row);
    event.correlation_id = ApplyDelta(calls.correlation_id_delta(row), &correlation);
    event.domain = domain.At(row, &value) ? static_cast<schema::ApiDomain>(value)
                                          : schema::API_DOMAIN_RUNTIME;
    event.status = status.At(row, &value) ? static_cast<int64_t>(value) : 0;
    event.stream = stream.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.bytes = bytes.At(row, &value) ? value : 0;
    event.copy_kind = copy_kind.At(row, &value) ? static_cast<schema::CopyKind>(value)
                                                : schema::COPY_KIND_UNKNOWN;
    event.kernel_config = config.At(row, &value) ? static_cast<KernelConfigId>(value) : 0;
    event.call_stack = stack.At(row, &value) ? static_cast<CallStackId>(value) : 0;
    sink_->OnApiCall(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Ranges(const trace::ThreadEvents& thread) {
  const trace::HostRanges& ranges = thread.ranges();
  const int rows = ranges.name_id_size();
  if (!Consistent("ranges", {rows, ranges.start_delta_ns_size(), ranges.duration_ns_size(),
                             ranges.kind_size()})) {
    return;
  }
  SparseCursor domain = Sparse("ranges.domain_name_id", ranges.domain_name_id(), rows);
  SparseCursor shapes = Sparse("ranges.shapes_id", ranges.shapes_id(), rows);
  SparseCursor dtypes = Sparse("ranges.dtypes_id", ranges.dtypes_id(), rows);
  SparseCursor source = Sparse("ranges.source_id", ranges.source_id(), rows);
  uint64_t start = 0;
  HostRangeEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(ranges.start_delta_ns(row), &start);
    event.duration_ns = ranges.duration_ns(row);
    event.name = ranges.name_id(row);
    event.kind = static_cast<schema::RangeKind>(ranges.kind(row));
    event.domain = domain.At(row, &value) ? static_cast<StringId>(value) : 0;
    event.shapes = shapes.At(row, &value) ? static_cast<StringId>(value) : 0;
    event.dtypes = dtypes.At(row, &value) ? static_cast<StringId>(value) : 0;
    event.source = source.At(row, &value) ? static_cast<StringId>(value) : 0;
    sink_->OnHostRange(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Steps(const trace::ThreadEvents& thread) {
  const trace::Steps& steps = thread.steps();
  const int rows = steps.start_delta_ns_size();
  if (!Consistent("steps", {rows, steps.duration_ns_size(), steps.step_number_delta_size(),
                            steps.sample_count_size()})) {
    return;
  }
  uint64_t start = 0;
  uint64_t number = 0;
  StepEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(steps.start_delta_ns(row), &start);
    event.duration_ns = steps.duration_ns(row);
    event.step_number = static_cast<int64_t>(ApplyDelta(steps.step_number_delta(row), &number));
    event.sample_count = steps.sample_count(row);
    sink_->OnStep(event);
  }
  stats_.events += rows;
}

void BlockDecoder::NcclCalls(const trace::ThreadEvents& thread) {
  const trace::NcclCalls& calls = thread.nccl_calls();
  const int rows = calls.operation_size();
  if (!Consistent("nccl_calls",
                  {rows, calls.start_delta_ns_size(), calls.duration_ns_size(),
                   calls.count_size(), calls.data_type_size(), calls.bytes_size(),
                   calls.communicator_id_size(), calls.sequence_number_delta_size(),
                   calls.stream_size()})) {
    return;
  }
  SparseCursor root = Sparse("nccl_calls.root_or_peer", calls.root_or_peer(), rows);
  SparseCursor reduction = Sparse("nccl_calls.reduction_op", calls.reduction_op(), rows);
  uint64_t start = 0;
  uint64_t sequence = 0;
  NcclCallEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(calls.start_delta_ns(row), &start);
    event.duration_ns = calls.duration_ns(row);
    event.operation = static_cast<schema::NcclOperation>(calls.operation(row));
    event.count = calls.count(row);
    event.data_type = calls.data_type(row);
    event.bytes = calls.bytes(row);
    event.communicator = calls.communicator_id(row);
    event.sequence_number =
        static_cast<int64_t>(ApplyDelta(calls.sequence_number_delta(row), &sequence));
    event.stream = calls.stream(row);
    event.root_or_peer = root.At(row, &value) ? std::optional<int64_t>(static_cast<int64_t>(value))
                                              : std::nullopt;
    event.reduction_op = reduction.At(row, &value)
                             ? std::optional<uint32_t>(static_cast<uint32_t>(value))
                             : std::nullopt;
    sink_->OnNcclCall(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Memory(const trace::ThreadEvents& thread) {
  const trace::MemoryEvents& memory = thread.memory();
  const int rows = memory.operation_size();
  if (!Consistent("memory", {rows, memory.time_delta_ns_size(), memory.address_delta_size(),
                             memory.bytes_size(), memory.device_size(), memory.kind_size()})) {
    return;
  }
  SparseCursor stream = Sparse("memory.stream", memory.stream(), rows);
  SparseCursor stack = Sparse("memory.call_stack_id", memory.call_stack_id(), rows);
  uint64_t time = 0;
  uint64_t address = 0;
  MemoryEvent event;
  event.thread_id = thread.thread_id();
  event.clock = static_cast<schema::ClockDomain>(thread.clock());
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.time_ns = ApplyDelta(memory.time_delta_ns(row), &time);
    event.operation = static_cast<schema::MemoryOperation>(memory.operation(row));
    event.address = ApplyDelta(memory.address_delta(row), &address);
    event.bytes = memory.bytes(row);
    event.device = memory.device(row);
    event.kind = static_cast<schema::MemoryKind>(memory.kind(row));
    event.stream = stream.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.call_stack = stack.At(row, &value) ? static_cast<CallStackId>(value) : 0;
    sink_->OnMemory(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Stream(const trace::StreamEvents& stream) {
  const StreamKey where{stream.device(), stream.context(), stream.stream(),
                       static_cast<schema::ClockDomain>(stream.clock())};
  if (stream.has_kernels()) Kernels(where, stream.kernels());
  if (stream.has_memcpys()) Memcpys(where, stream.memcpys());
  if (stream.has_memsets()) Memsets(where, stream.memsets());
  if (stream.has_synchronizations()) Synchronizations(where, stream.synchronizations());
}

void BlockDecoder::Kernels(const StreamKey& where, const trace::Kernels& kernels) {
  const int rows = kernels.kernel_config_id_size();
  if (!Consistent("kernels", {rows, kernels.start_delta_ns_size(), kernels.duration_ns_size(),
                              kernels.correlation_id_delta_size()})) {
    return;
  }
  SparseCursor graph = Sparse("kernels.graph_id", kernels.graph_id(), rows);
  SparseCursor node = Sparse("kernels.graph_node_id", kernels.graph_node_id(), rows);
  SparseCursor launch = Sparse("kernels.launch_type", kernels.launch_type(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  KernelEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(kernels.start_delta_ns(row), &start);
    event.duration_ns = kernels.duration_ns(row);
    event.config = kernels.kernel_config_id(row);
    event.correlation_id = ApplyDelta(kernels.correlation_id_delta(row), &correlation);
    event.graph_id = graph.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.graph_node_id = node.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    event.launch_type = launch.At(row, &value)
                            ? std::optional<uint32_t>(static_cast<uint32_t>(value))
                            : std::nullopt;
    sink_->OnKernel(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Memcpys(const StreamKey& where, const trace::Memcpys& copies) {
  const int rows = copies.bytes_size();
  if (!Consistent("memcpys", {rows, copies.start_delta_ns_size(), copies.duration_ns_size(),
                              copies.copy_kind_size(), copies.source_kind_size(),
                              copies.destination_kind_size(),
                              copies.correlation_id_delta_size()})) {
    return;
  }
  uint64_t start = 0;
  uint64_t correlation = 0;
  MemcpyEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(copies.start_delta_ns(row), &start);
    event.duration_ns = copies.duration_ns(row);
    event.bytes = copies.bytes(row);
    event.copy_kind = static_cast<schema::CopyKind>(copies.copy_kind(row));
    event.source_kind = static_cast<schema::MemoryKind>(copies.source_kind(row));
    event.destination_kind = static_cast<schema::MemoryKind>(copies.destination_kind(row));
    event.correlation_id = ApplyDelta(copies.correlation_id_delta(row), &correlation);
    sink_->OnMemcpy(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Memsets(const StreamKey& where, const trace::Memsets& memsets) {
  const int rows = memsets.bytes_size();
  if (!Consistent("memsets", {rows, memsets.start_delta_ns_size(), memsets.duration_ns_size(),
                              memsets.value_size(), memsets.correlation_id_delta_size()})) {
    return;
  }
  uint64_t start = 0;
  uint64_t correlation = 0;
  MemsetEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    event.start_ns = ApplyDelta(memsets.start_delta_ns(row), &start);
    event.duration_ns = memsets.duration_ns(row);
    event.bytes = memsets.bytes(row);
    event.value = memsets.value(row);
    event.correlation_id = ApplyDelta(memsets.correlation_id_delta(row), &correlation);
    sink_->OnMemset(event);
  }
  stats_.events += rows;
}

void BlockDecoder::Synchronizations(const StreamKey& where,
                                    const trace::Synchronizations& syncs) {
  const int rows = syncs.kind_size();
  if (!Consistent("synchronizations", {rows, syncs.start_delta_ns_size(),
                                       syncs.duration_ns_size(),
                                       syncs.correlation_id_delta_size()})) {
    return;
  }
  SparseCursor waited = Sparse("synchronizations.event_id", syncs.event_id(), rows);
  uint64_t start = 0;
  uint64_t correlation = 0;
  SynchronizationEvent event;
  event.where = where;
  for (int row = 0; row < rows; ++row) {
    uint64_t value = 0;
    event.start_ns = ApplyDelta(syncs.start_delta_ns(row), &start);
    event.duration_ns = syncs.duration_ns(row);
    event.kind = static_cast<schema::SynchronizationKind>(syncs.kind(row));
    event.correlation_id = ApplyDelta(syncs.correlation_id_delta(row), &correlation);
    event.event_id = waited.At(row, &value) ? std::optional<uint64_t>(value) : std::nullopt;
    sink_->OnSynchronization(event);
  }
  stats_.events += rows;
}

}  // namespace

ChunkDecodeStats DecodeChunk(const trace::Chunk& chunk, EventSink* sink) {
  if (chunk.has_process()) {
    sink->OnProcess(chunk.process().name_id(), chunk.process().parent_pid());
  }
  for (const trace::ThreadName& name : chunk.thread_names()) {
    sink->OnThreadName(name.thread_id(), name.name_id());
  }
  for (const trace::ClockAnchor& anchor : chunk.clock_anchors()) sink->OnClockAnchor(anchor);
  for (const trace::CpuUsage& usage : chunk.cpu_usage()) sink->OnCpuUsage(usage);
  for (const trace::MemorySample& sample : chunk.memory_samples()) {
    sink->OnMemorySample({sample.time_ns(), sample.device(), sample.allocated(), sample.reserved(),
                          sample.peak(), sample.rss()});
  }
  for (const trace::LossCounter& loss : chunk.losses()) {
    sink->OnLoss(static_cast<schema::LossKind>(loss.kind()), loss.count());
    if (loss.step_known()) {
      sink->OnStepLoss(static_cast<schema::LossKind>(loss.kind()), loss.count(), loss.step_number());
    }
  }
  BlockDecoder decoder(chunk.sequence(), sink);
  for (const trace::ThreadEvents& thread : chunk.threads()) decoder.Thread(thread);
  for (const trace::StreamEvents& stream : chunk.streams()) decoder.Stream(stream);
  return decoder.stats();
}

}  // namespace prof
