#include "analyzer/render/timeline_test_trace.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "analyzer/render/chrome_exporter.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::testing {
namespace {

constexpr uint64_t kThread = 11;

// cudaLaunchKernel on stream 0x7 of a kernel with grid (4,2,1), block (256,1,1), 64
// registers: 8 warps per block, 2048 registers per warp, 32 warps' registers per SM -> 4
// blocks = 32 of 64 warps: 50% occupancy.
void AddKernel(TestTrace* trace, uint64_t offset) {
  ChunkEncoder& encoder = trace->encoder();
  ApiCallEvent call;
  call.thread_id = kThread;
  call.start_ns = 1000;
  call.duration_ns = 1000;
  call.name = encoder.InternString("cudaLaunchKernel");
  call.correlation_id = 1;
  call.stream = 0x7;
  call.call_stack = encoder.InternCallStack({0x100, 0x200}, {"launch_gemm", "main"});
  encoder.AddApiCall(call);
  KernelConfigValue config;
  config.name = encoder.InternString("gemm_kernel");
  config.grid[0] = 4;
  config.grid[1] = 2;
  config.grid[2] = 1;
  config.block[0] = 256;
  config.block[1] = 1;
  config.block[2] = 1;
  config.registers_per_thread = 64;
  config.static_shared_memory = 512;
  KernelEvent kernel;
  kernel.where = StreamKey{0, 1, 7, schema::CLOCK_DOMAIN_CUPTI};
  kernel.start_ns = 5000 + offset;
  kernel.duration_ns = 1000;
  kernel.config = encoder.InternKernelConfig(config);
  kernel.correlation_id = 1;
  encoder.AddKernel(kernel);
}

// cudaMemcpyAsync of 1,000,000 bytes host to device taking 10 us: 100 GB/s.
void AddCopy(TestTrace* trace, uint64_t offset) {
  ChunkEncoder& encoder = trace->encoder();
  ApiCallEvent call;
  call.thread_id = kThread;
  call.start_ns = 3000;
  call.duration_ns = 1000;
  call.name = encoder.InternString("cudaMemcpyAsync");
  call.correlation_id = 2;
  call.stream = 0x7;
  call.bytes = 1000000;
  call.copy_kind = schema::COPY_KIND_HOST_TO_DEVICE;
  call.status = 0;
  encoder.AddApiCall(call);
  MemcpyEvent copy;
  copy.where = StreamKey{0, 1, 7, schema::CLOCK_DOMAIN_CUPTI};
  copy.start_ns = 10000 + offset;
  copy.duration_ns = 10000;
  copy.bytes = 1000000;
  copy.copy_kind = schema::COPY_KIND_HOST_TO_DEVICE;
  copy.correlation_id = 2;
  encoder.AddMemcpy(copy);
}

// ncclSend of 256 float32 (1024 bytes) to peer 3 on a 4-rank communicator where this
// process is rank 1; ncclAllReduce (sum) of 10 bfloat16.
void AddNccl(TestTrace* trace) {
  ChunkEncoder& encoder = trace->encoder();
  CommunicatorValue comm;
  comm.comm_hash = 0xabc;
  comm.rank = 1;
  comm.rank_count = 4;
  NcclCallEvent send;
  send.thread_id = kThread;
  send.start_ns = 30000;
  send.duration_ns = 2000;
  send.operation = schema::NCCL_OPERATION_SEND;
  send.count = 256;
  send.data_type = 7;
  send.bytes = 1024;
  send.communicator = encoder.AddCommunicator(comm);
  send.root_or_peer = 3;
  encoder.AddNcclCall(send);
  NcclCallEvent reduce = send;
  reduce.start_ns = 40000;
  reduce.operation = schema::NCCL_OPERATION_ALL_REDUCE;
  reduce.count = 10;
  reduce.data_type = 9;
  reduce.bytes = 20;
  reduce.root_or_peer.reset();
  reduce.reduction_op = 0;
  encoder.AddNcclCall(reduce);
}

// A 4096-byte device allocation whose stack has a symbolized frame and an unresolved one.
void AddAllocation(TestTrace* trace) {
  ChunkEncoder& encoder = trace->encoder();
  MemoryEvent allocation;
  allocation.thread_id = kThread;
  allocation.time_ns = 50000;
  allocation.address = 0xd000;
  allocation.bytes = 4096;
  allocation.device = 0;
  allocation.kind = schema::MEMORY_KIND_DEVICE;
  allocation.call_stack = encoder.InternCallStack({0x300, 0x4f0}, {"at::native::empty_cuda", ""});
  encoder.AddMemory(allocation);
}

// The Python helper's allocator samples of GPU0 (allocated 4096 then 0 bytes, 2 MiB
// reserved throughout) and the agent's host RSS at the step's end boundary.
void AddMemorySamples(TestTrace* trace) {
  trace->encoder().AddMemorySample({60000, 0, 4096, 2097152, 8192, 0});
  trace->encoder().AddMemorySample({90000, 0, 0, 2097152, 8192, 0});
  trace->encoder().AddMemorySample({100000, -1, 0, 0, 0, 123456789});
}

}  // namespace

std::string WriteRecordedArgumentsTrace(const std::string& name) {
  TestTrace trace(/*rank=*/1);
  trace.header().set_window_index(2);
  trace.header().set_window_first_step(5);
  trace.header().set_window_end_step(7);
  trace.Step(kThread, 0, 100000, 5);
  AddKernel(&trace, kDefaultCuptiOffset);
  AddCopy(&trace, kDefaultCuptiOffset);
  AddNccl(&trace);
  AddAllocation(&trace);
  AddMemorySamples(&trace);
  return trace.Write(name);
}

std::optional<std::string> ChromeJsonOf(const TraceModel& model, const std::string& name) {
  const std::string path = TempPath(name);
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) return std::nullopt;
  ChromeExportFigures figures;
  const bool exported = ExportChromeTrace({&model}, out, &figures).ok();
  std::fclose(out);
  if (!exported) return std::nullopt;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace prof::analyzer::testing
