// ChunkEncoder (wire format written by hand, what the agent links) against libprotobuf:
// - the same calls on ReferenceChunkEncoder (the message-based encoder it replaced) give a
//   message whose libprotobuf serialization is byte for byte ChunkEncoder's output, and
//   libprotobuf parses ChunkEncoder's bytes back into that message: for the sample events,
//   and for random calls with extreme values (0, the maximum, negative zigzag values,
//   empty and long strings, empty chunks);
// - files written by earlier versions (testdata/*_v1.prof.pb: before the agent's own
//   writer, and the version 1 agent on a launcher) still read, event for event;
// - one small chunk equals the hand-checked bytes in testdata/small_chunk.hex.
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <google/protobuf/util/message_differencer.h>

#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/file_dictionary.h"
#include "proto/testing/event_strings.h"
#include "proto/testing/reference_chunk_encoder.h"
#include "proto/testing/sample_trace.h"
#include "proto/trace.pb.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace {

using google::protobuf::util::MessageDifferencer;
using testing::ReferenceChunkEncoder;

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();

// Both encoders' chunks agree: equal bytes, and ours parses into the reference message.
void CheckSameChunk(std::string_view ours, const trace::Chunk& reference) {
  trace::Chunk parsed;
  REQUIRE(parsed.ParseFromArray(ours.data(), static_cast<int>(ours.size())));
  CHECK(MessageDifferencer::Equals(parsed, reference));
  CHECK(reference.SerializeAsString() == ours);
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  REQUIRE(file.good());
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

TEST_CASE("the sample events give libprotobuf's bytes, chunk after chunk") {
  ChunkEncoder ours;
  ReferenceChunkEncoder reference;
  for (int chunk = 0; chunk < 4; ++chunk) {
    std::vector<std::string> ignored;
    testing::AddEveryEventKind(&ours, 77 + chunk, 30, &ignored);
    testing::AddEveryEventKind(&reference, 77 + chunk, 30, &ignored);
    CheckSameChunk(ours.Finish(chunk == 3), reference.Finish(chunk == 3));
  }
}

// Applies the same random call, with extreme values, to both encoders.
class RandomCalls {
 public:
  RandomCalls(uint64_t seed, ChunkEncoder* ours, ReferenceChunkEncoder* reference)
      : random_(seed), ours_(ours), reference_(reference) {}

  void One() {
    switch (random_() % 16) {
      case 0: String(); break;
      case 1: KernelConfig(); break;
      case 2: CallStack(); break;
      case 3: Communicator(); break;
      case 4: ApiCall(); break;
      case 5: HostRange(); break;
      case 6: Step(); break;
      case 7: NcclCall(); break;
      case 8: Memory(); break;
      case 9: DeviceEvents(); break;
      case 10: ChunkLevel(); break;
      default: DeviceEvents(); break;
    }
  }

 private:
  uint64_t U64() {
    switch (random_() % 6) {
      case 0: return 0;
      case 1: return 1;
      case 2: return kMax64;
      case 3: return uint64_t{1} << 63;  // INT64_MIN as a delta
      default: return random_() >> (random_() % 64);
    }
  }
  uint32_t U32() { return static_cast<uint32_t>(U64()); }
  int32_t I32() { return static_cast<int32_t>(U64()); }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  template <typename Enum>
  Enum Pick(int count) {
    return static_cast<Enum>(random_() % count);
  }
  uint64_t Thread() { return random_() % 3 == 0 ? kMax64 : random_() % 4; }
  schema::ClockDomain Clock() { return Pick<schema::ClockDomain>(2); }
  StreamKey Where() {
    return StreamKey{static_cast<uint32_t>(random_() % 2), random_() % 5 == 0 ? ~0u : 1u,
                     static_cast<uint32_t>(random_() % 3), Clock()};
  }
  const std::string& Text() {
    switch (random_() % 5) {
      case 0: text_ = ""; break;
      case 1: text_ = std::string(70000, 'x'); break;
      case 2: text_ = std::string("nul\0inside", 10); break;
      default: text_ = "name" + std::to_string(random_() % 50); break;
    }
    return text_;
  }
  // Calls `call` on both encoders; the ids they return must agree.
  template <typename Call>
  void Both(Call call) {
    const auto a = call(ours_);
    const auto b = call(reference_);
    REQUIRE(a == b);
  }
  template <typename Call>
  void BothVoid(Call call) {
    call(ours_);
    call(reference_);
  }

  void String() {
    const std::string value = Text();
    Both([&](auto* e) { return e->InternString(value); });
  }
  void KernelConfig() {
    KernelConfigValue value;
    value.name = U32();
    value.grid[0] = U32();
    value.grid[1] = U32();
    value.grid[2] = U32();
    value.block[0] = U32();
    value.block[1] = U32();
    value.block[2] = U32();
    value.static_shared_memory = U32();
    value.dynamic_shared_memory = U32();
    value.registers_per_thread = U32();
    Both([&](auto* e) { return e->InternKernelConfig(value); });
  }
  void CallStack() {
    std::vector<uint64_t> frames(random_() % 4);
    for (uint64_t& frame : frames) frame = U64();
    std::vector<std::string> names;
    if (random_() % 2) {
      for (size_t i = 0; i < frames.size(); ++i) names.push_back(Text());
    }
    Both([&](auto* e) { return e->InternCallStack(frames, names); });
  }
  void Communicator() {
    const CommunicatorValue value{U64(), I32(), I32(), I32(), U64(), U64()};
    Both([&](auto* e) { return e->AddCommunicator(value); });
  }
  void ApiCall() {
    ApiCallEvent event;
    event.thread_id = Thread();
    event.clock = Clock();
    event.start_ns = U64();
    event.duration_ns = U64();
    event.name = U32();
    event.correlation_id = U64();
    event.domain = Pick<schema::ApiDomain>(2);
    event.status = random_() % 2 ? 0 : I64();
    if (random_() % 2) event.stream = U64();
    event.bytes = U64();
    event.copy_kind = Pick<schema::CopyKind>(7);
    event.kernel_config = U32();
    event.call_stack = U32();
    BothVoid([&](auto* e) { e->AddApiCall(event); });
  }
  void HostRange() {
    HostRangeEvent event{Thread(),
                         Clock(),
                         U64(),
                         U64(),
                         U32(),
                         Pick<schema::RangeKind>(6),
                         random_() % 2 ? 0 : U32()};
    event.shapes = random_() % 2 ? 0 : U32();
    event.dtypes = random_() % 2 ? 0 : U32();
    event.source = random_() % 2 ? 0 : U32();
    BothVoid([&](auto* e) { e->AddHostRange(event); });
  }
  void Step() {
    const StepEvent event{Thread(), Clock(), U64(), U64(), I64(), I64()};
    BothVoid([&](auto* e) { e->AddStep(event); });
  }
  void NcclCall() {
    NcclCallEvent event;
    event.thread_id = Thread();
    event.clock = Clock();
    event.start_ns = U64();
    event.duration_ns = U64();
    event.operation = Pick<schema::NcclOperation>(13);
    event.count = U64();
    event.data_type = U32();
    event.bytes = U64();
    event.communicator = U32();
    event.sequence_number = I64();
    event.stream = U64();
    if (random_() % 2) event.root_or_peer = I64();
    if (random_() % 2) event.reduction_op = U32();
    BothVoid([&](auto* e) { e->AddNcclCall(event); });
  }
  void Memory() {
    MemoryEvent event;
    event.thread_id = Thread();
    event.clock = Clock();
    event.time_ns = U64();
    event.operation = Pick<schema::MemoryOperation>(2);
    event.address = U64();
    event.bytes = U64();
    event.device = I32();
    event.kind = Pick<schema::MemoryKind>(7);
    if (random_() % 2) event.stream = U64();
    event.call_stack = U32();
    BothVoid([&](auto* e) { e->AddMemory(event); });
  }
  void DeviceEvents() {
    KernelEvent kernel{Where(), U64(), U64(), U32(), U64()};
    if (random_() % 2) kernel.graph_id = U64();
    if (random_() % 2) kernel.graph_node_id = U64();
    if (random_() % 2) kernel.launch_type = U32();
    const MemcpyEvent copy{Where(),
                           U64(),
                           U64(),
                           U64(),
                           Pick<schema::CopyKind>(7),
                           Pick<schema::MemoryKind>(7),
                           Pick<schema::MemoryKind>(7),
                           U64()};
    const MemsetEvent memset{Where(), U64(), U64(), U64(), U32(), U64()};
    SynchronizationEvent sync{Where(), U64(), U64(), Pick<schema::SynchronizationKind>(5), U64()};
    if (random_() % 2) sync.event_id = U64();
    switch (random_() % 4) {
      case 0: BothVoid([&](auto* e) { e->AddKernel(kernel); }); break;
      case 1: BothVoid([&](auto* e) { e->AddMemcpy(copy); }); break;
      case 2: BothVoid([&](auto* e) { e->AddMemset(memset); }); break;
      default: BothVoid([&](auto* e) { e->AddSynchronization(sync); }); break;
    }
  }
  void ChunkLevel() {
    const uint64_t thread = Thread();
    const std::string name = Text();
    const int64_t parent = I64();
    const auto loss = Pick<schema::LossKind>(8);
    const uint64_t count = U64();
    const ClockAnchorValue anchor{U64(), U64(), U64(), U64(), Text()};
    const CpuUsageValue usage{U64(), U64(), U64(), U64(), random_() % 2 == 0};
    const int32_t devices[] = {-1, 0, 7, std::numeric_limits<int32_t>::min(),
                               std::numeric_limits<int32_t>::max()};
    const MemorySampleEvent sample{U64(), devices[random_() % 5], U64(), U64(), U64(), U64()};
    switch (random_() % 6) {
      case 0: BothVoid([&](auto* e) { e->SetThreadName(thread, name); }); break;
      case 1: BothVoid([&](auto* e) { e->SetProcess(name, parent); }); break;
      case 2: BothVoid([&](auto* e) { e->AddLoss(loss, count); }); break;
      case 3: BothVoid([&](auto* e) { e->AddClockAnchor(anchor); }); break;
      case 4: BothVoid([&](auto* e) { e->AddMemorySample(sample); }); break;
      default: BothVoid([&](auto* e) { e->AddCpuUsage(usage); }); break;
    }
  }

  std::mt19937_64 random_;
  ChunkEncoder* ours_;
  ReferenceChunkEncoder* reference_;
  std::string text_;
};

TEST_CASE("random calls with extreme values give libprotobuf's bytes") {
  for (uint64_t seed = 0; seed < 60; ++seed) {
    INFO("seed " << seed);
    ChunkEncoder ours;
    ReferenceChunkEncoder reference;
    RandomCalls calls(seed, &ours, &reference);
    std::mt19937_64 chunking(seed);
    for (int chunk = 0; chunk < 5; ++chunk) {
      // Chunk 0 of every other seed is empty.
      const int count = (chunk == 0 && seed % 2 == 0) ? 0 : static_cast<int>(chunking() % 400);
      for (int i = 0; i < count; ++i) calls.One();
      CHECK(ours.pending_events() == reference.pending_events());
      CheckSameChunk(ours.Finish(chunk == 4), reference.Finish(chunk == 4));
    }
  }
}

TEST_CASE("an empty chunk is its sequence number and nothing else") {
  ChunkEncoder encoder;
  CHECK(encoder.Finish(false).empty());  // sequence 0 and no last_chunk: all defaults
  trace::Chunk parsed;
  const std::string_view second = encoder.Finish(true);
  REQUIRE(parsed.ParseFromArray(second.data(), static_cast<int>(second.size())));
  CHECK(parsed.sequence() == 1);
  CHECK(parsed.last_chunk());
  CHECK(second == std::string_view("\x08\x01\x68\x01", 4));
}

// Lines of "event description" per chunk, as written beside an old file
// (//proto:dump_events of the build that wrote it).
std::vector<std::vector<std::string>> ExpectedEventsOf(const std::string& events_path) {
  std::vector<std::vector<std::string>> chunks;
  std::ifstream text(events_path);
  REQUIRE(text.good());
  std::string line;
  while (std::getline(text, line)) {
    const size_t space = line.find(' ');
    const size_t chunk = std::stoul(line.substr(0, space));
    if (chunks.size() <= chunk) chunks.resize(chunk + 1);
    chunks[chunk].push_back(line.substr(space + 1));
  }
  return chunks;
}

// Reads the checked-in trace `bytes` and compares every event of every chunk with the
// list written beside it; returns the events read.
size_t CheckReadsAsWritten(const std::string& bytes, const std::string& events_path) {
  auto reader = TraceFileReader::OpenSource(MakeMemorySource(bytes), events_path);
  REQUIRE(reader.ok());
  const std::vector<std::vector<std::string>> expected = ExpectedEventsOf(events_path);
  FileDictionary dictionary;
  trace::Chunk chunk;
  size_t index = 0, events = 0;
  while ((*reader)->Next(&chunk)) {
    REQUIRE(index < expected.size());
    dictionary.AddDefinitions(chunk);
    testing::RecordingSink sink;
    const ChunkDecodeStats stats = DecodeChunk(chunk, &sink);
    CHECK(stats.first_problem.empty());
    std::sort(sink.events.begin(), sink.events.end());
    CHECK(sink.events == expected[index]);
    events += sink.events.size();
    ++index;
  }
  CHECK(index == expected.size());
  CHECK((*reader)->report().issues.empty());
  return events;
}

TEST_CASE("a file written before the agent's own wire writer still reads, event for event") {
  const std::string old_bytes = ReadFile("proto/testdata/sample_v1.prof.pb");
  auto reader = TraceFileReader::OpenSource(MakeMemorySource(old_bytes), "sample_v1");
  REQUIRE(reader.ok());
  CHECK((*reader)->header().host_name() == "testhost");
  CHECK((*reader)->header().config().at("PROF_SCHEDULE") == "skip_first=1,record=2");
  CHECK((*reader)->header().format_version() == 1);
  CHECK(CheckReadsAsWritten(old_bytes, "proto/testdata/sample_v1.events.txt") == 108);
}

// Written by main 49630e0's agent (format version 1, before run-length columns) under
// launch_stress --launches 1000 --threads 2 --rounds 2 --rate 1000000 with the simulated
// CUPTI: 1001 API calls, 1000 kernels, 3 steps, 1 synchronization.
TEST_CASE("a launcher trace written by the version 1 agent still reads, event for event") {
  const std::string old_bytes = ReadFile("proto/testdata/launcher_v1.prof.pb");
  auto reader = TraceFileReader::OpenSource(MakeMemorySource(old_bytes), "launcher_v1");
  REQUIRE(reader.ok());
  CHECK((*reader)->header().format_version() == 1);
  CHECK(CheckReadsAsWritten(old_bytes, "proto/testdata/launcher_v1.events.txt") == 2005);
}

// Hex bytes, '#' to end of line a comment.
std::string ReadHex(const std::string& path) {
  std::ifstream text(path);
  REQUIRE(text.good());
  std::string bytes, line;
  while (std::getline(text, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string word;
    while (words >> word) bytes.push_back(static_cast<char>(std::stoul(word, nullptr, 16)));
  }
  return bytes;
}

TEST_CASE("one small chunk is the hand-checked bytes of testdata/small_chunk.hex") {
  ChunkEncoder encoder;
  ApiCallEvent call;
  call.thread_id = 5;
  call.start_ns = 100;
  call.duration_ns = 7;
  call.name = encoder.InternString("k");
  call.correlation_id = 3;
  call.stream = 9;
  encoder.AddApiCall(call);
  KernelEvent kernel;
  kernel.where = StreamKey{0, 1, 7, schema::CLOCK_DOMAIN_CUPTI};
  kernel.start_ns = 110;
  kernel.duration_ns = 20;
  kernel.correlation_id = 3;
  encoder.AddKernel(kernel);
  CHECK(encoder.Finish(true) == ReadHex("proto/testdata/small_chunk.hex"));
}

}  // namespace
}  // namespace prof
