#include "proto/testing/sample_trace.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "proto/testing/event_strings.h"
#include "proto/header_message.h"

namespace prof::testing {
namespace {

// Every kind once, with fields drawn from `random`; optional fields present on odd rounds.
// `Encoder` is ChunkEncoder or ReferenceChunkEncoder (the same calls to both).
template <typename Encoder>
class EventMaker {
 public:
  EventMaker(Encoder* encoder, uint64_t seed, std::vector<std::string>* expected)
      : encoder_(encoder), random_(seed), expected_(expected) {}

  void Round(int round) {
    present_ = (round % 2) == 1;
    now_ += Draw(1, 50000);
    thread_ = 1000 + Draw(0, 2);
    ApiCall();
    Range();
    Step(round);
    Nccl();
    Memory();
    Kernel();
    Memcpy();
    Memset();
    Synchronization();
  }

 private:
  uint64_t Draw(uint64_t low, uint64_t high) {
    return std::uniform_int_distribution<uint64_t>(low, high)(random_);
  }
  // A start time near now, sometimes before the previous one.
  uint64_t Start() { return now_ + Draw(0, 3000) - 1500; }
  StreamKey Where() {
    return StreamKey{static_cast<uint32_t>(Draw(0, 1)), 1, static_cast<uint32_t>(Draw(7, 9)),
                     schema::CLOCK_DOMAIN_CUPTI};
  }

  void ApiCall() {
    ApiCallEvent e;
    e.thread_id = thread_;
    e.clock = present_ ? schema::CLOCK_DOMAIN_CUPTI : schema::CLOCK_DOMAIN_HOST_MONOTONIC;
    e.start_ns = Start();
    e.duration_ns = Draw(0, 10000);
    e.name = encoder_->InternString(present_ ? "cudaMemcpyAsync" : "cudaLaunchKernel");
    e.correlation_id = ++correlation_;
    if (present_) {
      e.domain = schema::API_DOMAIN_DRIVER;
      e.status = 700;
      e.stream = 0;  // the legacy default stream is a value, not an absence
      e.bytes = Draw(1, 1u << 30);
      e.copy_kind = schema::COPY_KIND_DEVICE_TO_HOST;
      e.kernel_config = Config();
      e.call_stack = encoder_->InternCallStack({0x401000, 0x402000 + Draw(0, 3)});
    }
    encoder_->AddApiCall(e);
    expected_->push_back(Describe(e));
  }

  KernelConfigId Config() {
    KernelConfigValue config;
    config.name = encoder_->InternString("_ZN7cutlass6KernelINS_4gemm6kernel4GemmEEEvNT_6ParamsE" +
                                         std::to_string(Draw(0, 3)));
    config.grid[0] = static_cast<uint32_t>(Draw(1, 1024));
    config.block[0] = 256;
    config.registers_per_thread = 64;
    return encoder_->InternKernelConfig(config);
  }

  void Range() {
    HostRangeEvent e;
    e.thread_id = thread_;
    e.start_ns = Start();
    e.duration_ns = present_ ? Draw(0, 100000) : 0;
    e.name = encoder_->InternString(present_ ? "Forward" : "matmul");
    e.kind = present_ ? schema::RANGE_KIND_MODEL_PHASE : schema::RANGE_KIND_MARK;
    e.domain = present_ ? encoder_->InternString("PyTorch") : 0;
    encoder_->AddHostRange(e);
    expected_->push_back(Describe(e));
  }

  void Step(int round) {
    StepEvent e;
    e.thread_id = thread_;
    e.start_ns = Start();
    e.duration_ns = Draw(1, 1000000);
    e.step_number = round;
    e.sample_count = present_ ? 64 : -1;
    encoder_->AddStep(e);
    expected_->push_back(Describe(e));
  }

  void Nccl() {
    NcclCallEvent e;
    e.thread_id = thread_;
    e.start_ns = Start();
    e.duration_ns = Draw(0, 5000);
    e.operation = present_ ? schema::NCCL_OPERATION_BROADCAST : schema::NCCL_OPERATION_ALL_REDUCE;
    e.count = Draw(1, 1u << 24);
    e.data_type = 7;
    e.bytes = e.count * 4;
    if (communicator_ == 0) {
      communicator_ = encoder_->AddCommunicator(CommunicatorValue{0xABCDEF, 1, 4, 1, now_, 5});
    }
    e.communicator = communicator_;
    e.sequence_number = ++sequence_;
    e.stream = 0x7f0000001000;
    if (present_) {
      e.root_or_peer = 3;
      e.reduction_op = 0;
    }
    encoder_->AddNcclCall(e);
    expected_->push_back(Describe(e));
  }

  void Memory() {
    MemoryEvent e;
    e.thread_id = thread_;
    e.time_ns = Start();
    e.operation = present_ ? schema::MEMORY_OPERATION_FREE : schema::MEMORY_OPERATION_ALLOCATE;
    e.address = 0x7f0000000000 + Draw(0, 1u << 20) * 256;
    e.bytes = present_ ? 0 : Draw(1, 1u << 30);
    e.device = present_ ? -1 : 0;
    e.kind = present_ ? schema::MEMORY_KIND_PINNED : schema::MEMORY_KIND_DEVICE_POOL;
    if (present_) {
      e.stream = 12;
      e.call_stack = encoder_->InternCallStack({0x501000});
    }
    encoder_->AddMemory(e);
    expected_->push_back(Describe(e));
  }

  void Kernel() {
    KernelEvent e;
    e.where = Where();
    e.start_ns = Start() + 1000000000000ull;  // CUPTI clock far from the host clock
    e.duration_ns = Draw(0, 200000);
    e.config = Config();
    e.correlation_id = correlation_ - Draw(0, 1);
    if (present_) {
      e.graph_id = 5;
      e.graph_node_id = ~uint64_t{0};
      e.launch_type = 2;
    }
    encoder_->AddKernel(e);
    expected_->push_back(Describe(e));
  }

  void Memcpy() {
    MemcpyEvent e;
    e.where = Where();
    e.start_ns = Start() + 1000000000000ull;
    e.duration_ns = Draw(1, 100000);
    e.bytes = Draw(1, uint64_t{1} << 40);
    e.copy_kind = present_ ? schema::COPY_KIND_PEER_TO_PEER : schema::COPY_KIND_HOST_TO_DEVICE;
    e.source_kind = schema::MEMORY_KIND_PAGEABLE;
    e.destination_kind = schema::MEMORY_KIND_DEVICE;
    e.correlation_id = correlation_;
    encoder_->AddMemcpy(e);
    expected_->push_back(Describe(e));
  }

  void Memset() {
    MemsetEvent e;
    e.where = Where();
    e.start_ns = Start() + 1000000000000ull;
    e.duration_ns = Draw(1, 1000);
    e.bytes = Draw(0, 1u << 20);
    e.value = static_cast<uint32_t>(Draw(0, 255));
    e.correlation_id = correlation_;
    encoder_->AddMemset(e);
    expected_->push_back(Describe(e));
  }

  void Synchronization() {
    SynchronizationEvent e;
    e.where = Where();
    e.start_ns = Start() + 1000000000000ull;
    e.duration_ns = Draw(0, 1000000);
    e.kind = present_ ? schema::SYNCHRONIZATION_KIND_EVENT : schema::SYNCHRONIZATION_KIND_CONTEXT;
    e.correlation_id = correlation_;
    if (present_) e.event_id = 0x55;
    encoder_->AddSynchronization(e);
    expected_->push_back(Describe(e));
  }

  Encoder* encoder_;
  std::mt19937_64 random_;
  std::vector<std::string>* expected_;
  bool present_ = false;
  uint64_t now_ = 5000000000;
  uint64_t thread_ = 0;
  uint64_t correlation_ = 0;
  int64_t sequence_ = 0;
  CommunicatorId communicator_ = 0;
};

}  // namespace

void AddEveryEventKind(ChunkEncoder* encoder, uint64_t seed, int rounds,
                       std::vector<std::string>* expected) {
  EventMaker<ChunkEncoder> maker(encoder, seed, expected);
  for (int round = 0; round < rounds; ++round) maker.Round(round);
}

void AddEveryEventKind(ReferenceChunkEncoder* encoder, uint64_t seed, int rounds,
                       std::vector<std::string>* expected) {
  EventMaker<ReferenceChunkEncoder> maker(encoder, seed, expected);
  for (int round = 0; round < rounds; ++round) maker.Round(round);
}

trace::FileHeader SampleHeader() {
  trace::FileHeader header;
  header.set_agent_version("test");
  header.set_host_name("testhost");
  header.set_pid(4242);
  header.set_rank(1);
  header.set_world_size(4);
  header.set_window_index(2);
  trace::ClockAnchor* anchor = header.add_clock_anchors();
  anchor->set_host_monotonic_ns(5000000000);
  anchor->set_cupti_ns(1005000000000);
  (*header.mutable_config())["PROF_SCHEDULE"] = "skip_first=1,record=2";
  return header;
}

SampleTrace MakeSampleTrace(int chunks, int rounds) {
  SampleTrace sample;
  sample.header = SampleHeader();
  const int fd = memfd_create("sample_trace", 0);
  if (fd < 0) std::abort();
  auto writer = CreateTraceFileWriterForDescriptor(dup(fd), "sample", sample.header);
  if (!writer.ok()) std::abort();
  sample.header_end = (*writer)->bytes_written();
  ChunkEncoder encoder;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    std::vector<std::string> expected;
    AddEveryEventKind(&encoder, 1000 + chunk, rounds, &expected);
    std::sort(expected.begin(), expected.end());
    sample.events_per_chunk.push_back(std::move(expected));
    if (!(*writer)->AppendChunk(encoder.Finish(chunk == chunks - 1)).ok()) std::abort();
    sample.chunk_ends.push_back((*writer)->bytes_written());
  }
  if (!(*writer)->Close().ok()) std::abort();
  sample.bytes.resize(sample.chunk_ends.empty() ? sample.header_end : sample.chunk_ends.back());
  if (pread(fd, sample.bytes.data(), sample.bytes.size(), 0) !=
      static_cast<ssize_t>(sample.bytes.size())) {
    std::abort();
  }
  close(fd);
  return sample;
}

}  // namespace prof::testing
