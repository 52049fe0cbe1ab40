#include "analyzer/testing/hostile_traces.h"

#include <cstdint>

#include "proto/framing.h"
#include "proto/testing/frame_bytes.h"

namespace prof::analyzer::testing {
namespace {

std::string HeaderFrame() {
  trace::FileHeader header;
  header.set_format_version(kFormatVersion);
  header.set_host_name("hostile");
  header.set_pid(4242);
  header.set_rank(-1);
  return prof::testing::FrameBytes(FrameType::kFileHeader, header.SerializeAsString());
}

// A last chunk defining string 1 = "cudaLaunchKernel".
trace::Chunk BaseChunk() {
  trace::Chunk chunk;
  chunk.set_last_chunk(true);
  chunk.set_first_string_id(1);
  chunk.add_strings("cudaLaunchKernel");
  return chunk;
}

trace::ThreadEvents* Thread(trace::Chunk* chunk) {
  trace::ThreadEvents* thread = chunk->add_threads();
  thread->set_thread_id(7);
  return thread;
}

trace::StreamEvents* Stream(trace::Chunk* chunk) {
  trace::StreamEvents* stream = chunk->add_streams();
  stream->set_device(0);
  stream->set_stream(1);
  stream->set_clock(trace::CLOCK_DOMAIN_HOST_MONOTONIC);
  return stream;
}

trace::Chunk ApiCallNamed(uint32_t name_id) {
  trace::Chunk chunk = BaseChunk();
  trace::ApiCalls* calls = Thread(&chunk)->mutable_api_calls();
  calls->add_start_delta_ns(1000);
  calls->add_duration_ns(10);
  calls->add_name_id(name_id);
  calls->add_correlation_id_delta(1);
  return chunk;
}

trace::Chunk KernelWithConfig(uint32_t config_id) {
  trace::Chunk chunk = BaseChunk();
  trace::Kernels* kernels = Stream(&chunk)->mutable_kernels();
  kernels->add_start_delta_ns(2000);
  kernels->add_duration_ns(100);
  kernels->add_kernel_config_id(config_id);
  kernels->add_correlation_id_delta(1);
  return chunk;
}

trace::Chunk StringsAt(uint32_t first_string_id, int count) {
  trace::Chunk chunk = ApiCallNamed(first_string_id);
  chunk.set_first_string_id(first_string_id);
  chunk.clear_strings();
  for (int i = 0; i < count; ++i) chunk.add_strings("hostile");
  return chunk;
}

trace::Chunk SynchronizationKind(int kind) {
  trace::Chunk chunk = BaseChunk();
  trace::Synchronizations* syncs = Stream(&chunk)->mutable_synchronizations();
  syncs->add_start_delta_ns(3000);
  syncs->add_duration_ns(50);
  syncs->add_kind(static_cast<trace::SynchronizationKind>(kind));
  syncs->add_correlation_id_delta(0);
  return chunk;
}

// An allocation never freed, so it reaches the leak table with its kind.
trace::Chunk MemoryKind(int kind, int operation, int clock) {
  trace::Chunk chunk = BaseChunk();
  trace::ThreadEvents* thread = Thread(&chunk);
  thread->set_clock(static_cast<trace::ClockDomain>(clock));
  trace::MemoryEvents* memory = thread->mutable_memory();
  memory->add_time_delta_ns(4000);
  memory->add_operation(static_cast<trace::MemoryOperation>(operation));
  memory->add_address_delta(0x7000);
  memory->add_bytes(4096);
  memory->add_device(0);
  memory->add_kind(static_cast<trace::MemoryKind>(kind));
  return chunk;
}

trace::Chunk NcclOperation(int operation) {
  trace::Chunk chunk = BaseChunk();
  trace::NcclCalls* calls = Thread(&chunk)->mutable_nccl_calls();
  calls->add_start_delta_ns(5000);
  calls->add_duration_ns(70);
  calls->add_operation(static_cast<trace::NcclOperation>(operation));
  calls->add_count(1024);
  calls->add_data_type(7);
  calls->add_bytes(4096);
  calls->add_communicator_id(1);
  calls->add_sequence_number_delta(1);
  calls->add_stream(1);
  return chunk;
}

trace::Chunk OtherUnknownEnums() {
  trace::Chunk chunk = MemoryKind(trace::MEMORY_KIND_DEVICE, trace::MEMORY_OPERATION_ALLOCATE, 0);
  trace::LossCounter* loss = chunk.add_losses();
  loss->set_kind(static_cast<trace::LossKind>(99));
  loss->set_count(3);
  trace::HostRanges* ranges = chunk.mutable_threads(0)->mutable_ranges();
  ranges->add_start_delta_ns(100);
  ranges->add_duration_ns(10);
  ranges->add_name_id(1);
  ranges->add_kind(static_cast<trace::RangeKind>(99));
  trace::Memcpys* copies = Stream(&chunk)->mutable_memcpys();
  copies->add_start_delta_ns(6000);
  copies->add_duration_ns(10);
  copies->add_bytes(64);
  copies->add_copy_kind(static_cast<trace::CopyKind>(99));
  copies->add_source_kind(static_cast<trace::MemoryKind>(98));
  copies->add_destination_kind(static_cast<trace::MemoryKind>(97));
  copies->add_correlation_id_delta(0);
  return chunk;
}

}  // namespace

std::string ChunkFrame(const std::string& payload) {
  return prof::testing::FrameBytes(FrameType::kChunk, payload);
}

std::string FramedFile(const std::vector<trace::Chunk>& chunks) {
  std::string bytes = prof::testing::PreambleBytes() + HeaderFrame();
  for (const trace::Chunk& chunk : chunks) bytes += ChunkFrame(chunk.SerializeAsString());
  return bytes;
}

std::string FakeFrameHeaders(size_t bytes, uint32_t claimed_payload) {
  return prof::testing::FakeFrameHeaders(bytes, claimed_payload, 0x12345678);
}

std::string EmptyThreadsPayload(size_t count) {
  std::string payload;
  payload.reserve(2 * count);
  for (size_t i = 0; i < count; ++i) payload += std::string("\x2a\x00", 2);  // field 5, length 0
  return payload;
}

std::vector<HostileTrace> HostileTraces() {
  std::vector<HostileTrace> traces;
  auto add = [&](const std::string& name, std::string bytes, bool readable = true) {
    traces.push_back({name, std::move(bytes), readable});
  };
  add("name_id_ffffffff.pb", FramedFile({ApiCallNamed(0xFFFFFFFFu)}));
  add("name_id_7fffffff.pb", FramedFile({ApiCallNamed(0x7FFFFFFFu)}));
  add("kernel_config_ffffffff.pb", FramedFile({KernelWithConfig(0xFFFFFFFFu)}));
  add("kernel_config_7fffffff.pb", FramedFile({KernelWithConfig(0x7FFFFFFFu)}));
  add("first_string_id_2p28.pb", FramedFile({StringsAt((1u << 28) - 2, 1)}));
  add("first_string_id_wraps.pb", FramedFile({StringsAt(0xFFFFFFFFu, 3)}));
  add("synchronization_kind_99.pb", FramedFile({SynchronizationKind(99)}));
  add("memory_kind_99.pb", FramedFile({MemoryKind(99, trace::MEMORY_OPERATION_ALLOCATE, 0)}));
  add("memory_operation_9_clock_5.pb", FramedFile({MemoryKind(trace::MEMORY_KIND_DEVICE, 9, 5)}));
  add("nccl_operation_99.pb", FramedFile({NcclOperation(99)}));
  add("loss_range_copy_kinds_99.pb", FramedFile({OtherUnknownEnums()}));
  // The header frame's preamble, then fake headers only: nothing to read.
  add("fake_frame_headers.pb", FramedFile({}) + FakeFrameHeaders(64 << 10, 60u << 20), true);
  add("only_fake_frame_headers.pb",
      std::string(FramedFile({})).substr(0, kPreambleSize) + FakeFrameHeaders(64 << 10, 60u << 20),
      false);
  add("empty_threads_expansion.pb", FramedFile({}) + ChunkFrame(EmptyThreadsPayload(64 << 10)),
      true);
  return traces;
}

}  // namespace prof::analyzer::testing
