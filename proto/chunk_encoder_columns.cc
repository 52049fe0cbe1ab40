// ChunkEncoder's per-event appends (each value straight into its column's bytes) and the
// assembly of a chunk from those columns in Finish(). Interning and the chunk-level
// definitions are in chunk_encoder.cc.
#include "proto/chunk_blocks.h"
#include "proto/chunk_encoder.h"
#include "proto/chunk_encoder_inline.h"
#include "proto/trace_fields.h"

namespace prof {

using chunk_blocks::BlockFieldSize;
using chunk_blocks::NewRow;
using chunk_blocks::PutBlock;
using chunk_blocks::TakeDelta;

void ChunkEncoder::AddApiCall(const ApiCallEvent& event) { AddApiCallInline(event); }

void ChunkEncoder::AddHostRange(const HostRangeEvent& event) { AddHostRangeInline(event); }

void ChunkEncoder::AddStep(const StepEvent& event) {
  chunk_blocks::Steps& steps = Thread(event.thread_id, event.clock).steps;
  NewRow(&steps);
  steps.start_delta_ns.AddSigned(TakeDelta(event.start_ns, &steps.deltas.start));
  steps.duration_ns.AddUnsigned(event.duration_ns);
  steps.step_number_delta.AddSigned(
      TakeDelta(static_cast<uint64_t>(event.step_number), &steps.deltas.step_number));
  steps.sample_count.AddSigned(event.sample_count);
  ++pending_events_;
}

void ChunkEncoder::AddNcclCall(const NcclCallEvent& event) {
  chunk_blocks::NcclCalls& calls = Thread(event.thread_id, event.clock).nccl;
  const uint32_t row = NewRow(&calls);
  calls.start_delta_ns.AddSigned(TakeDelta(event.start_ns, &calls.deltas.start));
  calls.duration_ns.AddUnsigned(event.duration_ns);
  calls.operation.AddInt32(event.operation);
  calls.count.AddUnsigned(event.count);
  calls.data_type.AddUnsigned(event.data_type);
  calls.bytes.AddUnsigned(event.bytes);
  calls.communicator_id.AddUnsigned(event.communicator);
  calls.sequence_number_delta.AddSigned(
      TakeDelta(static_cast<uint64_t>(event.sequence_number), &calls.deltas.sequence));
  calls.stream.AddUnsigned(event.stream);
  if (event.root_or_peer)
    calls.root_or_peer.Append(row, static_cast<uint64_t>(*event.root_or_peer));
  if (event.reduction_op) calls.reduction_op.Append(row, *event.reduction_op);
  ++pending_events_;
}

void ChunkEncoder::AddMemory(const MemoryEvent& event) {
  chunk_blocks::MemoryEvents& memory = Thread(event.thread_id, event.clock).memory;
  const uint32_t row = NewRow(&memory);
  memory.time_delta_ns.AddSigned(TakeDelta(event.time_ns, &memory.deltas.time));
  memory.operation.AddInt32(event.operation);
  memory.address_delta.AddSigned(TakeDelta(event.address, &memory.deltas.address));
  memory.bytes.AddUnsigned(event.bytes);
  memory.device.AddInt32(event.device);
  memory.kind.AddInt32(event.kind);
  if (event.stream) memory.stream.Append(row, *event.stream);
  if (event.call_stack != 0) memory.call_stack_id.Append(row, event.call_stack);
  ++pending_events_;
}

void ChunkEncoder::AddKernel(const KernelEvent& event) {
  chunk_blocks::Kernels& kernels = Stream(event.where).kernels;
  const uint32_t row = NewRow(&kernels);
  kernels.start_delta_ns.AddSigned(TakeDelta(event.start_ns, &kernels.deltas.start));
  kernels.duration_ns.AddUnsigned(event.duration_ns);
  kernels.kernel_config_id.AddRepeating(event.config);
  kernels.correlation_id_delta.AddRepeatingSigned(
      TakeDelta(event.correlation_id, &kernels.deltas.correlation));
  if (event.graph_id) kernels.graph_id.Append(row, *event.graph_id);
  if (event.graph_node_id) kernels.graph_node_id.Append(row, *event.graph_node_id);
  if (event.launch_type) kernels.launch_type.Append(row, *event.launch_type);
  ++pending_events_;
}

void ChunkEncoder::AddMemcpy(const MemcpyEvent& event) {
  chunk_blocks::Memcpys& copies = Stream(event.where).memcpys;
  NewRow(&copies);
  copies.start_delta_ns.AddSigned(TakeDelta(event.start_ns, &copies.deltas.start));
  copies.duration_ns.AddUnsigned(event.duration_ns);
  copies.bytes.AddUnsigned(event.bytes);
  copies.copy_kind.AddRepeatingInt32(event.copy_kind);
  copies.source_kind.AddRepeatingInt32(event.source_kind);
  copies.destination_kind.AddRepeatingInt32(event.destination_kind);
  copies.correlation_id_delta.AddRepeatingSigned(
      TakeDelta(event.correlation_id, &copies.deltas.correlation));
  ++pending_events_;
}

void ChunkEncoder::AddMemset(const MemsetEvent& event) {
  chunk_blocks::Memsets& memsets = Stream(event.where).memsets;
  NewRow(&memsets);
  memsets.start_delta_ns.AddSigned(TakeDelta(event.start_ns, &memsets.deltas.start));
  memsets.duration_ns.AddUnsigned(event.duration_ns);
  memsets.bytes.AddUnsigned(event.bytes);
  memsets.value.AddRepeating(event.value);
  memsets.correlation_id_delta.AddRepeatingSigned(
      TakeDelta(event.correlation_id, &memsets.deltas.correlation));
  ++pending_events_;
}

void ChunkEncoder::AddSynchronization(const SynchronizationEvent& event) {
  chunk_blocks::Synchronizations& syncs = Stream(event.where).syncs;
  const uint32_t row = NewRow(&syncs);
  syncs.start_delta_ns.AddSigned(TakeDelta(event.start_ns, &syncs.deltas.start));
  syncs.duration_ns.AddUnsigned(event.duration_ns);
  syncs.kind.AddRepeatingInt32(event.kind);
  syncs.correlation_id_delta.AddRepeatingSigned(
      TakeDelta(event.correlation_id, &syncs.deltas.correlation));
  if (event.event_id) syncs.event_id.Append(row, *event.event_id);
  ++pending_events_;
}

// Chunk.threads: each ThreadEvents settled (the smaller form of each run-length column),
// sized (its length prefix comes before it), then written with its blocks in field-number
// order.
void ChunkEncoder::WriteThreads() {
  using F = field::ThreadEvents;
  for (size_t i = 0; i < threads_used_; ++i) {
    ThreadGroup& group = *thread_groups_[i];
    group.SettleRuns(&run_scratch_);
    const size_t size =
        wire::VarintFieldSizeIfNonZero(F::kThreadId, group.thread_id) +
        wire::VarintFieldSizeIfNonZero(F::kClock, wire::Int32Bits(group.clock)) +
        BlockFieldSize(F::kApiCalls, group.api) + BlockFieldSize(F::kRanges, group.ranges) +
        BlockFieldSize(F::kSteps, group.steps) + BlockFieldSize(F::kNcclCalls, group.nccl) +
        BlockFieldSize(F::kMemory, group.memory);
    wire::PutLengthDelimitedHeader(&chunk_, field::Chunk::kThreads, size);
    wire::PutVarintFieldIfNonZero(&chunk_, F::kThreadId, group.thread_id);
    wire::PutInt32FieldIfNonZero(&chunk_, F::kClock, group.clock);
    PutBlock(&chunk_, F::kApiCalls, group.api);
    PutBlock(&chunk_, F::kRanges, group.ranges);
    PutBlock(&chunk_, F::kSteps, group.steps);
    PutBlock(&chunk_, F::kNcclCalls, group.nccl);
    PutBlock(&chunk_, F::kMemory, group.memory);
  }
}

void ChunkEncoder::WriteStreams() {
  using F = field::StreamEvents;
  for (size_t i = 0; i < streams_used_; ++i) {
    StreamGroup& group = *stream_groups_[i];
    group.SettleRuns(&run_scratch_);
    const StreamKey& key = group.key;
    const size_t size = wire::VarintFieldSizeIfNonZero(F::kDevice, key.device) +
                        wire::VarintFieldSizeIfNonZero(F::kContext, key.context) +
                        wire::VarintFieldSizeIfNonZero(F::kStream, key.stream) +
                        wire::VarintFieldSizeIfNonZero(F::kClock, wire::Int32Bits(key.clock)) +
                        BlockFieldSize(F::kKernels, group.kernels) +
                        BlockFieldSize(F::kMemcpys, group.memcpys) +
                        BlockFieldSize(F::kMemsets, group.memsets) +
                        BlockFieldSize(F::kSynchronizations, group.syncs);
    wire::PutLengthDelimitedHeader(&chunk_, field::Chunk::kStreams, size);
    wire::PutVarintFieldIfNonZero(&chunk_, F::kDevice, key.device);
    wire::PutVarintFieldIfNonZero(&chunk_, F::kContext, key.context);
    wire::PutVarintFieldIfNonZero(&chunk_, F::kStream, key.stream);
    wire::PutInt32FieldIfNonZero(&chunk_, F::kClock, key.clock);
    PutBlock(&chunk_, F::kKernels, group.kernels);
    PutBlock(&chunk_, F::kMemcpys, group.memcpys);
    PutBlock(&chunk_, F::kMemsets, group.memsets);
    PutBlock(&chunk_, F::kSynchronizations, group.syncs);
  }
}

std::string_view ChunkEncoder::Finish(bool last_chunk) {
  using F = field::Chunk;
  chunk_.clear();
  wire::PutVarintFieldIfNonZero(&chunk_, F::kSequence, next_sequence_++);
  wire::PutVarintFieldIfNonZero(&chunk_, F::kFirstStringId, first_string_id_);
  chunk_.AppendBytes(strings_.data(), strings_.size());
  chunk_.AppendBytes(kernel_configs_.data(), kernel_configs_.size());
  WriteThreads();
  WriteStreams();
  chunk_.AppendBytes(communicators_.data(), communicators_.size());
  chunk_.AppendBytes(call_stacks_.data(), call_stacks_.size());
  chunk_.AppendBytes(thread_names_.data(), thread_names_.size());
  chunk_.AppendBytes(losses_.data(), losses_.size());
  chunk_.AppendBytes(clock_anchors_.data(), clock_anchors_.size());
  if (has_process_) {
    using P = field::ProcessInfo;
    scratch_.clear();
    wire::PutVarintFieldIfNonZero(&scratch_, P::kNameId, process_name_);
    wire::PutVarintFieldIfNonZero(&scratch_, P::kParentPid,
                                  static_cast<uint64_t>(process_parent_pid_));
    wire::PutBytesField(&chunk_, F::kProcess, scratch_.view());
  }
  wire::PutVarintFieldIfNonZero(&chunk_, F::kLastChunk, last_chunk ? 1 : 0);
  chunk_.AppendBytes(cpu_usage_.data(), cpu_usage_.size());
  chunk_.AppendBytes(memory_samples_.data(), memory_samples_.size());

  // The next chunk starts empty; every buffer keeps its capacity.
  for (wire::Buffer* buffer :
       {&strings_, &kernel_configs_, &communicators_, &call_stacks_, &thread_names_, &losses_,
        &clock_anchors_, &cpu_usage_, &memory_samples_}) {
    buffer->clear();
  }
  first_string_id_ = 0;
  has_process_ = false;
  threads_used_ = 0;
  streams_used_ = 0;
  thread_group_index_.clear();
  stream_group_index_.clear();
  last_thread_ = nullptr;
  last_thread_clock_ = kNoClock;
  last_stream_ = nullptr;
  pending_events_ = 0;
  return chunk_.view();
}

}  // namespace prof
