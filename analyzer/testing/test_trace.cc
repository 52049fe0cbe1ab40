#include "analyzer/testing/test_trace.h"

#include <algorithm>
#include <cstdlib>

#include "proto/header_message.h"

namespace prof::analyzer::testing {

std::string TempPath(const std::string& name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return std::string(directory ? directory : "/tmp") + "/" + name;
}

TestTrace::TestTrace(int32_t rank, int64_t pid, uint64_t cupti_offset_ns, bool anchor)
    : cupti_offset_(cupti_offset_ns) {
  header_.set_host_name("testhost");
  header_.set_pid(pid);
  header_.set_rank(rank);
  header_.set_world_size(rank >= 0 ? 2 : 0);
  header_.set_agent_version("test");
  if (anchor) {
    trace::ClockAnchor* clock = header_.add_clock_anchors();
    clock->set_host_monotonic_ns(1000000);
    clock->set_cupti_ns(1000000 + cupti_offset_ns);
    clock->set_reason("window open");
  }
}

void TestTrace::Step(uint64_t thread, uint64_t start, uint64_t end, int64_t number,
                     int64_t samples) {
  StepEvent event;
  event.thread_id = thread;
  event.start_ns = start;
  event.duration_ns = end - start;
  event.step_number = number;
  event.sample_count = samples;
  encoder_.AddStep(event);
}

void TestTrace::Range(uint64_t thread, schema::RangeKind kind, const std::string& name,
                      uint64_t start, uint64_t end) {
  HostRangeEvent event;
  event.thread_id = thread;
  event.start_ns = start;
  event.duration_ns = end - start;
  event.name = encoder_.InternString(name);
  event.kind = kind;
  encoder_.AddHostRange(event);
}

void TestTrace::Mark(uint64_t thread, const std::string& name, uint64_t time) {
  Range(thread, schema::RANGE_KIND_MARK, name, time, time);
}

uint64_t TestTrace::ApiCall(uint64_t thread, const std::string& name, uint64_t start, uint64_t end,
                            uint64_t correlation) {
  ApiCallEvent event;
  event.thread_id = thread;
  event.start_ns = start;
  event.duration_ns = end - start;
  event.name = encoder_.InternString(name);
  event.correlation_id = correlation ? correlation : ++next_correlation_;
  encoder_.AddApiCall(event);
  return event.correlation_id;
}

void TestTrace::Kernel(const std::string& name, uint32_t device, uint32_t stream, uint64_t start,
                       uint64_t end, uint64_t correlation) {
  KernelConfigValue config;
  config.name = encoder_.InternString(name);
  config.grid[0] = 1;
  config.block[0] = 128;
  KernelEvent event;
  event.where = StreamKey{device, 1, stream, schema::CLOCK_DOMAIN_CUPTI};
  event.start_ns = start + cupti_offset_;
  event.duration_ns = end - start;
  event.config = encoder_.InternKernelConfig(config);
  event.correlation_id = correlation;
  encoder_.AddKernel(event);
}

void TestTrace::Memcpy(uint32_t device, uint32_t stream, uint64_t start, uint64_t end,
                       uint64_t bytes, schema::CopyKind kind, uint64_t correlation,
                       schema::MemoryKind source, schema::MemoryKind destination) {
  MemcpyEvent event;
  event.where = StreamKey{device, 1, stream, schema::CLOCK_DOMAIN_CUPTI};
  event.start_ns = start + cupti_offset_;
  event.duration_ns = end - start;
  event.bytes = bytes;
  event.copy_kind = kind;
  event.source_kind = source;
  event.destination_kind = destination;
  event.correlation_id = correlation;
  encoder_.AddMemcpy(event);
}

void TestTrace::Memset(uint32_t device, uint32_t stream, uint64_t start, uint64_t end,
                       uint64_t correlation) {
  MemsetEvent event;
  event.where = StreamKey{device, 1, stream, schema::CLOCK_DOMAIN_CUPTI};
  event.start_ns = start + cupti_offset_;
  event.duration_ns = end - start;
  event.bytes = 4096;
  event.correlation_id = correlation;
  encoder_.AddMemset(event);
}

uint64_t TestTrace::Launch(uint64_t thread, uint64_t call_start, uint64_t call_end,
                           const std::string& kernel, uint32_t device, uint32_t stream,
                           uint64_t start, uint64_t end) {
  const uint64_t correlation = ApiCall(thread, "cudaLaunchKernel", call_start, call_end);
  Kernel(kernel, device, stream, start, end, correlation);
  return correlation;
}

uint64_t TestTrace::HostLaunch(uint64_t thread, uint64_t call_start, uint64_t call_end,
                               const std::string& kernel, const uint32_t (&grid)[3],
                               const uint32_t (&block)[3], uint32_t dynamic_shared_memory) {
  KernelConfigValue config;
  config.name = encoder_.InternString(kernel);
  std::copy(grid, grid + 3, config.grid);
  std::copy(block, block + 3, config.block);
  config.dynamic_shared_memory = dynamic_shared_memory;
  ApiCallEvent event;
  event.thread_id = thread;
  event.start_ns = call_start;
  event.duration_ns = call_end - call_start;
  event.name = encoder_.InternString("cudaLaunchKernel");
  event.correlation_id = ++next_correlation_;
  event.kernel_config = encoder_.InternKernelConfig(config);
  encoder_.AddApiCall(event);
  return event.correlation_id;
}

void TestTrace::Nccl(uint64_t thread, schema::NcclOperation operation, uint64_t start, uint64_t end,
                     uint64_t bytes, int32_t ranks, int64_t sequence, uint64_t comm_hash) {
  uint32_t& communicator = nccl_communicators_[comm_hash];
  if (communicator == 0) {
    CommunicatorValue comm;
    comm.comm_hash = comm_hash;
    comm.rank = header_.rank();
    comm.rank_count = ranks;
    communicator = encoder_.AddCommunicator(comm);
  }
  NcclCallEvent event;
  event.thread_id = thread;
  event.start_ns = start;
  event.duration_ns = end - start;
  event.operation = operation;
  event.bytes = bytes;
  event.communicator = communicator;
  event.sequence_number = sequence;
  encoder_.AddNcclCall(event);
}

void TestTrace::Allocate(uint64_t thread, uint64_t time, uint64_t address, uint64_t bytes,
                         int32_t device) {
  MemoryEvent event;
  event.thread_id = thread;
  event.time_ns = time;
  event.address = address;
  event.bytes = bytes;
  event.device = device;
  event.kind = device >= 0 ? schema::MEMORY_KIND_DEVICE : schema::MEMORY_KIND_PINNED;
  encoder_.AddMemory(event);
}

void TestTrace::Free(uint64_t thread, uint64_t time, uint64_t address, int32_t device) {
  MemoryEvent event;
  event.thread_id = thread;
  event.time_ns = time;
  event.operation = schema::MEMORY_OPERATION_FREE;
  event.address = address;
  event.device = device;
  encoder_.AddMemory(event);
}

void TestTrace::NextChunk() { chunks_.push_back(std::string(encoder_.Finish(false))); }

std::string TestTrace::Write(const std::string& name, bool last_chunk) {
  const std::string path = TempPath(name);
  WriteFile(path, last_chunk);
  return path;
}

void TestTrace::WriteFile(const std::string& path, bool last_chunk) {
  auto writer = CreateTraceFileWriter(path, header_);
  if (!writer.ok()) std::abort();  // test-only: a broken TEST_TMPDIR is fatal
  for (const std::string& chunk : chunks_) (*writer)->AppendChunk(chunk).IgnoreError();
  (*writer)->AppendChunk(encoder_.Finish(last_chunk)).IgnoreError();
  (*writer)->Close().IgnoreError();
}

}  // namespace prof::analyzer::testing
