#include "proto/chunk_decoder.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "proto/columns.h"

namespace prof {
namespace {

using columns::ApplyDelta;
using columns::ColumnCursor;
using columns::ColumnRows;
using columns::kRunsNumberOffset;
using columns::PlainValues;
using columns::SparseCursor;
using columns::SparseRows;
using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// The columns of one block message type, found from its descriptor once per process: the
// walk over its fields, the search for each companion and the companion's name were per
// block of every chunk.
struct BlockLayout {
  struct Column {
    const FieldDescriptor* values;
    const FieldDescriptor* runs;  // its companion of run lengths; nullptr when it has none
  };
  explicit BlockLayout(const Descriptor& type);

  const Descriptor& descriptor;
  std::vector<Column> columns;                 // every packed column, in declaration order
  std::vector<const FieldDescriptor*> sparse;  // every SparseColumn field
  int highest_number = 0;
};

BlockLayout::BlockLayout(const Descriptor& type) : descriptor(type) {
  for (int i = 0; i < type.field_count(); ++i) {
    const FieldDescriptor* field = type.field(i);
    highest_number = std::max(highest_number, field->number());
    if (!field->is_repeated()) {
      if (field->message_type() == trace::SparseColumn::descriptor()) sparse.push_back(field);
      continue;
    }
    // A companion is checked with its column.
    if (field->number() > kRunsNumberOffset) continue;
    const FieldDescriptor* runs = type.FindFieldByNumber(field->number() + kRunsNumberOffset);
    if (runs != nullptr && runs->name() != field->name() + "_runs") runs = nullptr;
    columns.push_back({field, runs});
  }
}

template <typename Block>
const BlockLayout& LayoutOf() {
  static const BlockLayout layout(*Block::descriptor());
  return layout;
}

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

  // The rows of `block` (a column block of trace.proto): the common length of all its
  // packed columns (a column written as runs: the sum of its companion's lengths), found
  // from its descriptor so that a column added to the schema is checked without a change
  // here. -1 (and counted) when the lengths differ or runs do not fit their column.
  template <typename Block>
  int Rows(const Block& block) {
    return Rows(block, LayoutOf<Block>());
  }
  int Rows(const Message& block, const BlockLayout& layout);
  // A cursor over every sparse column of `block`, indexed by field number (from its
  // descriptor, as Rows); an invalid column is counted and reads as empty.
  template <typename Block>
  std::vector<SparseCursor> SparseColumns(const Block& block, int rows) {
    return SparseColumns(block, LayoutOf<Block>(), rows);
  }
  std::vector<SparseCursor> SparseColumns(const Message& block, const BlockLayout& layout,
                                          int rows);
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

int BlockDecoder::Rows(const Message& block, const BlockLayout& layout) {
  int64_t rows = -1;
  for (const BlockLayout::Column& column : layout.columns) {
    const int64_t size = ColumnRows(block, column.values, column.runs);
    if (size < 0 || size > std::numeric_limits<int>::max()) {
      ++stats_.malformed_blocks;
      Problem(absl::StrFormat("%s block: the runs of %s do not fit the column",
                              layout.descriptor.name(), column.values->name()));
      return -1;
    }
    if (rows >= 0 && size != rows) {
      ++stats_.malformed_blocks;
      Problem(absl::StrFormat("%s block has columns of different lengths",
                              layout.descriptor.name()));
      return -1;
    }
    rows = size;
  }
  return static_cast<int>(std::max<int64_t>(rows, 0));
}

std::vector<SparseCursor> BlockDecoder::SparseColumns(const Message& block,
                                                      const BlockLayout& layout, int rows) {
  const Reflection& reflection = *block.GetReflection();
  std::vector<SparseCursor> cursors(layout.highest_number + 1, SparseCursor(empty_column_, rows));
  for (const FieldDescriptor* field : layout.sparse) {
    const auto& column =
        static_cast<const trace::SparseColumn&>(reflection.GetMessage(block, field));
    SparseCursor cursor(column, rows);
    if (cursor.valid()) {
      cursors[field->number()] = cursor;
      continue;
    }
    ++stats_.malformed_columns;
    Problem(absl::StrFormat("sparse column %s.%s is malformed and was ignored",
                            layout.descriptor.name(), field->name()));
  }
  return cursors;
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

void BlockDecoder::Stream(const trace::StreamEvents& stream) {
  const StreamKey where{stream.device(), stream.context(), stream.stream(),
                        static_cast<schema::ClockDomain>(stream.clock())};
  if (stream.has_kernels()) Kernels(where, stream.kernels());
  if (stream.has_memcpys()) Memcpys(where, stream.memcpys());
  if (stream.has_memsets()) Memsets(where, stream.memsets());
  if (stream.has_synchronizations()) Synchronizations(where, stream.synchronizations());
}

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
      sink->OnStepLoss(static_cast<schema::LossKind>(loss.kind()), loss.count(),
                       loss.step_number());
    }
  }
  BlockDecoder decoder(chunk.sequence(), sink);
  for (const trace::ThreadEvents& thread : chunk.threads()) decoder.Thread(thread);
  for (const trace::StreamEvents& stream : chunk.streams()) decoder.Stream(stream);
  return decoder.stats();
}

}  // namespace prof
