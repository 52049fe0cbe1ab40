#include "proto/testing/reference_chunk_encoder.h"

#include "proto/chunk_blocks.h"
#include "proto/testing/reference_runs.h"

namespace prof::testing {

using chunk_blocks::TakeDelta;

namespace {

// Appends `value` at `row` of a block to a sparse column. Rows must increase.
class SparseAppender {
 public:
  void Append(trace::SparseColumn* column, uint32_t row, uint64_t value) {
    column->add_index_delta(row - last_row_);
    column->add_value(value);
    last_row_ = row;
  }

 private:
  uint32_t last_row_ = 0;
};

}  // namespace

// Delta and sparse-column state of one thread's blocks in the current chunk.
struct ReferenceChunkEncoder::ThreadGroup {
  trace::ThreadEvents* events = nullptr;
  uint64_t api_start = 0;
  uint64_t api_correlation = 0;
  SparseAppender api_domain, api_status, api_stream, api_bytes, api_copy_kind, api_kernel_config,
      api_call_stack;
  uint64_t range_start = 0;
  SparseAppender range_domain;
  SparseAppender range_shapes, range_dtypes, range_source;
  uint64_t step_start = 0;
  uint64_t step_number = 0;
  uint64_t nccl_start = 0;
  uint64_t nccl_sequence = 0;
  SparseAppender nccl_root_or_peer, nccl_reduction_op;
  uint64_t memory_time = 0;
  uint64_t memory_address = 0;
  SparseAppender memory_stream, memory_call_stack;
};

// Delta and sparse-column state of one stream's blocks in the current chunk.
struct ReferenceChunkEncoder::StreamGroup {
  trace::StreamEvents* events = nullptr;
  uint64_t kernel_start = 0;
  uint64_t kernel_correlation = 0;
  SparseAppender kernel_graph, kernel_graph_node, kernel_launch_type;
  uint64_t memcpy_start = 0;
  uint64_t memcpy_correlation = 0;
  uint64_t memset_start = 0;
  uint64_t memset_correlation = 0;
  uint64_t sync_start = 0;
  uint64_t sync_correlation = 0;
  SparseAppender sync_event;
};

ReferenceChunkEncoder::ReferenceChunkEncoder() = default;
ReferenceChunkEncoder::~ReferenceChunkEncoder() = default;

StringId ReferenceChunkEncoder::InternString(absl::string_view value) {
  auto it = string_ids_.find(value);
  if (it != string_ids_.end()) return it->second;
  const StringId id = static_cast<StringId>(string_ids_.size() + 1);
  string_ids_.emplace(std::string(value), id);
  if (chunk_.strings_size() == 0) chunk_.set_first_string_id(id);
  chunk_.add_strings(value.data(), value.size());
  return id;
}

KernelConfigId ReferenceChunkEncoder::InternKernelConfig(const KernelConfigValue& value) {
  auto it = kernel_config_ids_.find(value);
  if (it != kernel_config_ids_.end()) return it->second;
  const KernelConfigId id = static_cast<KernelConfigId>(kernel_config_ids_.size() + 1);
  kernel_config_ids_.emplace(value, id);
  trace::KernelConfig* config = chunk_.add_kernel_configs();
  config->set_id(id);
  config->set_name_id(value.name);
  config->set_grid_x(value.grid[0]);
  config->set_grid_y(value.grid[1]);
  config->set_grid_z(value.grid[2]);
  config->set_block_x(value.block[0]);
  config->set_block_y(value.block[1]);
  config->set_block_z(value.block[2]);
  config->set_static_shared_memory(value.static_shared_memory);
  config->set_dynamic_shared_memory(value.dynamic_shared_memory);
  config->set_registers_per_thread(value.registers_per_thread);
  return id;
}

CallStackId ReferenceChunkEncoder::InternCallStack(absl::Span<const uint64_t> frame_addresses,
                                                   absl::Span<const std::string> frame_names) {
  std::vector<uint64_t> key(frame_addresses.begin(), frame_addresses.end());
  auto it = call_stack_ids_.find(key);
  if (it != call_stack_ids_.end()) return it->second;
  const CallStackId id = static_cast<CallStackId>(call_stack_ids_.size() + 1);
  trace::CallStack* stack = chunk_.add_call_stacks();
  stack->set_id(id);
  for (uint64_t address : key) stack->add_frame_addresses(address);
  for (const std::string& name : frame_names) stack->add_frame_name_ids(InternString(name));
  call_stack_ids_.emplace(std::move(key), id);
  return id;
}

CommunicatorId ReferenceChunkEncoder::AddCommunicator(const CommunicatorValue& value) {
  const CommunicatorId id = next_communicator_id_++;
  trace::NcclCommunicator* communicator = chunk_.add_nccl_communicators();
  communicator->set_id(id);
  communicator->set_comm_hash(value.comm_hash);
  communicator->set_rank(value.rank);
  communicator->set_rank_count(value.rank_count);
  communicator->set_device(value.device);
  communicator->set_init_start_ns(value.init_start_ns);
  communicator->set_init_duration_ns(value.init_duration_ns);
  return id;
}

ReferenceChunkEncoder::ThreadGroup& ReferenceChunkEncoder::Thread(uint64_t thread_id,
                                                                  schema::ClockDomain clock) {
  const auto key = std::make_pair(thread_id, static_cast<int>(clock));
  auto [it, inserted] = thread_group_index_.try_emplace(key, thread_groups_.size());
  if (inserted) {
    ThreadGroup& group = thread_groups_.emplace_back();
    group.events = chunk_.add_threads();
    group.events->set_thread_id(thread_id);
    group.events->set_clock(static_cast<trace::ClockDomain>(clock));
  }
  return thread_groups_[it->second];
}

ReferenceChunkEncoder::StreamGroup& ReferenceChunkEncoder::Stream(const StreamKey& key) {
  const auto map_key = std::make_pair((uint64_t{key.device} << 32) | key.context,
                                      (uint64_t{key.stream} << 32) | key.clock);
  auto [it, inserted] = stream_group_index_.try_emplace(map_key, stream_groups_.size());
  if (inserted) {
    StreamGroup& group = stream_groups_.emplace_back();
    group.events = chunk_.add_streams();
    group.events->set_device(key.device);
    group.events->set_context(key.context);
    group.events->set_stream(key.stream);
    group.events->set_clock(static_cast<trace::ClockDomain>(key.clock));
  }
  return stream_groups_[it->second];
}

void ReferenceChunkEncoder::AddApiCall(const ApiCallEvent& event) {
  ThreadGroup& group = Thread(event.thread_id, event.clock);
  trace::ApiCalls* calls = group.events->mutable_api_calls();
  const uint32_t row = static_cast<uint32_t>(calls->name_id_size());
  calls->add_start_delta_ns(TakeDelta(event.start_ns, &group.api_start));
  calls->add_duration_ns(event.duration_ns);
  calls->add_name_id(event.name);
  calls->add_correlation_id_delta(TakeDelta(event.correlation_id, &group.api_correlation));
  if (event.domain != schema::API_DOMAIN_RUNTIME) {
    group.api_domain.Append(calls->mutable_domain(), row,
                            static_cast<uint64_t>(static_cast<int64_t>(event.domain)));
  }
  if (event.status != 0) {
    group.api_status.Append(calls->mutable_status(), row, static_cast<uint64_t>(event.status));
  }
  if (event.stream) group.api_stream.Append(calls->mutable_stream(), row, *event.stream);
  if (event.bytes != 0) group.api_bytes.Append(calls->mutable_bytes(), row, event.bytes);
  if (event.copy_kind != schema::COPY_KIND_UNKNOWN) {
    group.api_copy_kind.Append(calls->mutable_copy_kind(), row,
                               static_cast<uint64_t>(static_cast<int64_t>(event.copy_kind)));
  }
  if (event.kernel_config != 0) {
    group.api_kernel_config.Append(calls->mutable_kernel_config_id(), row, event.kernel_config);
  }
  if (event.call_stack != 0) {
    group.api_call_stack.Append(calls->mutable_call_stack_id(), row, event.call_stack);
  }
  ++pending_events_;
}

void ReferenceChunkEncoder::AddHostRange(const HostRangeEvent& event) {
  ThreadGroup& group = Thread(event.thread_id, event.clock);
  trace::HostRanges* ranges = group.events->mutable_ranges();
  const uint32_t row = static_cast<uint32_t>(ranges->name_id_size());
  ranges->add_start_delta_ns(TakeDelta(event.start_ns, &group.range_start));
  ranges->add_duration_ns(event.duration_ns);
  ranges->add_name_id(event.name);
  ranges->add_kind(static_cast<trace::RangeKind>(event.kind));
  if (event.domain != 0)
    group.range_domain.Append(ranges->mutable_domain_name_id(), row, event.domain);
  if (event.shapes != 0) group.range_shapes.Append(ranges->mutable_shapes_id(), row, event.shapes);
  if (event.dtypes != 0) group.range_dtypes.Append(ranges->mutable_dtypes_id(), row, event.dtypes);
  if (event.source != 0) group.range_source.Append(ranges->mutable_source_id(), row, event.source);
  ++pending_events_;
}

void ReferenceChunkEncoder::AddStep(const StepEvent& event) {
  ThreadGroup& group = Thread(event.thread_id, event.clock);
  trace::Steps* steps = group.events->mutable_steps();
  steps->add_start_delta_ns(TakeDelta(event.start_ns, &group.step_start));
  steps->add_duration_ns(event.duration_ns);
  steps->add_step_number_delta(
      TakeDelta(static_cast<uint64_t>(event.step_number), &group.step_number));
  steps->add_sample_count(event.sample_count);
  ++pending_events_;
}

void ReferenceChunkEncoder::AddNcclCall(const NcclCallEvent& event) {
  ThreadGroup& group = Thread(event.thread_id, event.clock);
  trace::NcclCalls* calls = group.events->mutable_nccl_calls();
  const uint32_t row = static_cast<uint32_t>(calls->operation_size());
  calls->add_start_delta_ns(TakeDelta(event.start_ns, &group.nccl_start));
  calls->add_duration_ns(event.duration_ns);
  calls->add_operation(static_cast<trace::NcclOperation>(event.operation));
  calls->add_count(event.count);
  calls->add_data_type(event.data_type);
  calls->add_bytes(event.bytes);
  calls->add_communicator_id(event.communicator);
  calls->add_sequence_number_delta(
      TakeDelta(static_cast<uint64_t>(event.sequence_number), &group.nccl_sequence));
  calls->add_stream(event.stream);
  if (event.root_or_peer) {
    group.nccl_root_or_peer.Append(calls->mutable_root_or_peer(), row,
                                   static_cast<uint64_t>(*event.root_or_peer));
  }
  if (event.reduction_op) {
    group.nccl_reduction_op.Append(calls->mutable_reduction_op(), row, *event.reduction_op);
  }
  ++pending_events_;
}

void ReferenceChunkEncoder::AddMemory(const MemoryEvent& event) {
  ThreadGroup& group = Thread(event.thread_id, event.clock);
  trace::MemoryEvents* memory = group.events->mutable_memory();
  const uint32_t row = static_cast<uint32_t>(memory->operation_size());
  memory->add_time_delta_ns(TakeDelta(event.time_ns, &group.memory_time));
  memory->add_operation(static_cast<trace::MemoryOperation>(event.operation));
  memory->add_address_delta(TakeDelta(event.address, &group.memory_address));
  memory->add_bytes(event.bytes);
  memory->add_device(event.device);
  memory->add_kind(static_cast<trace::MemoryKind>(event.kind));
  if (event.stream) group.memory_stream.Append(memory->mutable_stream(), row, *event.stream);
  if (event.call_stack != 0) {
    group.memory_call_stack.Append(memory->mutable_call_stack_id(), row, event.call_stack);
  }
  ++pending_events_;
}

void ReferenceChunkEncoder::AddKernel(const KernelEvent& event) {
  StreamGroup& group = Stream(event.where);
  trace::Kernels* kernels = group.events->mutable_kernels();
  const uint32_t row = static_cast<uint32_t>(kernels->kernel_config_id_size());
  kernels->add_start_delta_ns(TakeDelta(event.start_ns, &group.kernel_start));
  kernels->add_duration_ns(event.duration_ns);
  kernels->add_kernel_config_id(event.config);
  kernels->add_correlation_id_delta(TakeDelta(event.correlation_id, &group.kernel_correlation));
  if (event.graph_id) group.kernel_graph.Append(kernels->mutable_graph_id(), row, *event.graph_id);
  if (event.graph_node_id) {
    group.kernel_graph_node.Append(kernels->mutable_graph_node_id(), row, *event.graph_node_id);
  }
  if (event.launch_type) {
    group.kernel_launch_type.Append(kernels->mutable_launch_type(), row, *event.launch_type);
  }
  ++pending_events_;
}

void ReferenceChunkEncoder::AddMemcpy(const MemcpyEvent& event) {
  StreamGroup& group = Stream(event.where);
  trace::Memcpys* copies = group.events->mutable_memcpys();
  copies->add_start_delta_ns(TakeDelta(event.start_ns, &group.memcpy_start));
  copies->add_duration_ns(event.duration_ns);
  copies->add_bytes(event.bytes);
  copies->add_copy_kind(static_cast<trace::CopyKind>(event.copy_kind));
  copies->add_source_kind(static_cast<trace::MemoryKind>(event.source_kind));
  copies->add_destination_kind(static_cast<trace::MemoryKind>(event.destination_kind));
  copies->add_correlation_id_delta(TakeDelta(event.correlation_id, &group.memcpy_correlation));
  ++pending_events_;
}

void ReferenceChunkEncoder::AddMemset(const MemsetEvent& event) {
  StreamGroup& group = Stream(event.where);
  trace::Memsets* memsets = group.events->mutable_memsets();
  memsets->add_start_delta_ns(TakeDelta(event.start_ns, &group.memset_start));
  memsets->add_duration_ns(event.duration_ns);
  memsets->add_bytes(event.bytes);
  memsets->add_value(event.value);
  memsets->add_correlation_id_delta(TakeDelta(event.correlation_id, &group.memset_correlation));
  ++pending_events_;
}

void ReferenceChunkEncoder::AddSynchronization(const SynchronizationEvent& event) {
  StreamGroup& group = Stream(event.where);
  trace::Synchronizations* syncs = group.events->mutable_synchronizations();
  const uint32_t row = static_cast<uint32_t>(syncs->kind_size());
  syncs->add_start_delta_ns(TakeDelta(event.start_ns, &group.sync_start));
  syncs->add_duration_ns(event.duration_ns);
  syncs->add_kind(static_cast<trace::SynchronizationKind>(event.kind));
  syncs->add_correlation_id_delta(TakeDelta(event.correlation_id, &group.sync_correlation));
  if (event.event_id) group.sync_event.Append(syncs->mutable_event_id(), row, *event.event_id);
  ++pending_events_;
}

void ReferenceChunkEncoder::SetThreadName(uint64_t thread_id, absl::string_view name) {
  const StringId name_id = InternString(name);
  trace::ThreadName* entry = chunk_.add_thread_names();
  entry->set_thread_id(thread_id);
  entry->set_name_id(name_id);
}

void ReferenceChunkEncoder::SetProcess(absl::string_view name, int64_t parent_pid) {
  const StringId name_id = InternString(name);
  chunk_.mutable_process()->set_name_id(name_id);
  chunk_.mutable_process()->set_parent_pid(parent_pid);
}

void ReferenceChunkEncoder::AddLoss(schema::LossKind kind, uint64_t count) {
  if (count == 0) return;
  trace::LossCounter* loss = chunk_.add_losses();
  loss->set_kind(static_cast<trace::LossKind>(kind));
  loss->set_count(count);
}

void ReferenceChunkEncoder::AddClockAnchor(const ClockAnchorValue& value) {
  trace::ClockAnchor* anchor = chunk_.add_clock_anchors();
  anchor->set_host_monotonic_ns(value.host_monotonic_ns);
  anchor->set_host_realtime_ns(value.host_realtime_ns);
  anchor->set_cupti_ns(value.cupti_ns);
  anchor->set_uncertainty_ns(value.uncertainty_ns);
  anchor->set_reason(value.reason);
}

void ReferenceChunkEncoder::AddCpuUsage(const CpuUsageValue& value) {
  trace::CpuUsage* usage = chunk_.add_cpu_usage();
  usage->set_host_monotonic_ns(value.host_monotonic_ns);
  usage->set_process_cpu_ns(value.process_cpu_ns);
  usage->set_system_busy_ticks(value.system_busy_ticks);
  usage->set_system_idle_ticks(value.system_idle_ticks);
  usage->set_system_known(value.system_known);
}

void ReferenceChunkEncoder::AddMemorySample(const MemorySampleEvent& value) {
  trace::MemorySample* sample = chunk_.add_memory_samples();
  sample->set_time_ns(value.time_ns);
  sample->set_device(value.device);
  sample->set_allocated(value.allocated);
  sample->set_reserved(value.reserved);
  sample->set_peak(value.peak);
  sample->set_rss(value.rss);
}

const trace::Chunk& ReferenceChunkEncoder::Finish(bool last_chunk) {
  // Double buffering: the chunk returned last time becomes the one being built, and
  // Clear() keeps the capacity of its repeated fields for reuse.
  chunk_.set_sequence(next_sequence_++);
  chunk_.set_last_chunk(last_chunk);
  ApplyRunLengthColumns(&chunk_);
  finished_.Swap(&chunk_);
  chunk_.Clear();
  thread_groups_.clear();
  stream_groups_.clear();
  thread_group_index_.clear();
  stream_group_index_.clear();
  pending_events_ = 0;
  return finished_;
}

}  // namespace prof::testing
