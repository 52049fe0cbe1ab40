// The typed records (record.h) as the recorder writes them (recorder.h): each kind's
// fields, name and call stack read back from the ring through its own struct, at the size
// its struct gives it (sizes by hand from the layout, not from the code).
#include "agent/record/record.h"

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"

namespace prof {
namespace {

// A copy of each record drained from every buffer (the ring's bytes are reused after).
std::vector<std::vector<char>> DrainAll() {
  std::vector<std::vector<char>> records;
  ForEachBuffer([&](ThreadBuffer& buffer) {
    buffer.Drain([&](const Record& record) {
      const char* bytes = reinterpret_cast<const char*>(&record);
      records.emplace_back(bytes, bytes + record.size);
    });
  });
  return records;
}

const Record& HeaderOf(const std::vector<char>& bytes) {
  return *reinterpret_cast<const Record*>(bytes.data());
}

TEST_CASE("each kind's fields come back through its own struct, at its own size") {
  ConfigureBuffers(8u << 20);
  DrainAll();  // whatever an earlier test left
  static const char kDomain[] = "my_domain";
  RecordNamed<RecordKind::kRangePush>(3, "step", 10, 0, kDomain);
  RecordNamed<RecordKind::kRangePop>(0, nullptr, 20, 0);
  RecordStep(5, 7, 30, 40);
  const LaunchGeometry geometry{{2, 3, 4}, {32, 8, 1}, 256, 0};
  static const char kKernel = 0;
  ApiArguments launch;
  launch.stream_plus_one = 9;
  launch.function = &kKernel;
  launch.launch = &geometry;
  RecordApiCall(17, 50, 60, 2, launch);
  ApiArguments copy;
  copy.bytes = 4096;
  copy.copy_kind = 3;
  RecordApiCall(18, 70, 80, 0, copy);

  const auto records = DrainAll();
  REQUIRE(records.size() == 5);

  const Record& push = HeaderOf(records[0]);
  CHECK(push.kind == RecordKind::kRangePush);
  CHECK(push.size == 56);  // 48 (header, domain) + "step" and its NUL, to 8
  CHECK(push.subkind == 3);
  CHECK(std::string(push.name()) == "step");
  CHECK(RecordAs<NamedRecord>(push).domain == kDomain);

  const Record& pop = HeaderOf(records[1]);
  CHECK(pop.kind == RecordKind::kRangePop);
  CHECK(pop.size == 48);  // no name: no NUL either
  CHECK(pop.name_length == 0);
  CHECK(std::string(pop.name()).empty());
  CHECK(RecordAs<NamedRecord>(pop).domain == nullptr);

  const Record& step_header = HeaderOf(records[2]);
  REQUIRE(step_header.kind == RecordKind::kStep);
  const StepRecord& step = RecordAs<StepRecord>(step_header);
  CHECK(step.size == 56);
  CHECK(step.step == 5);
  CHECK(step.samples == 7);
  CHECK(step.start_ns == 30);
  CHECK(step.end_ns == 40);

  const Record& launch_header = HeaderOf(records[3]);
  REQUIRE(launch_header.kind == RecordKind::kLaunch);
  CHECK(launch_header.size == 64);  // one cache line
  CHECK(launch_header.api == 17);
  CHECK(launch_header.status == 2);
  CHECK(launch_header.start_ns == 50);
  CHECK(launch_header.end_ns == 60);
  const UnpackedLaunch call = UnpackLaunch(RecordAs<LaunchRecord>(launch_header).launch);
  CHECK(call.stream_plus_one == 9);
  CHECK(call.function == &kKernel);
  CHECK(call.geometry.grid[0] == 2);
  CHECK(call.geometry.grid[1] == 3);
  CHECK(call.geometry.grid[2] == 4);
  CHECK(call.geometry.block[0] == 32);
  CHECK(call.geometry.block[1] == 8);
  CHECK(call.geometry.block[2] == 1);
  CHECK(call.geometry.shared_memory == 256);

  const ApiCallRecord& copied = RecordAs<ApiCallRecord>(HeaderOf(records[4]));
  CHECK(copied.bytes == 4096);
  CHECK(copied.copy_kind_plus_one == 3);
  CHECK(copied.stream_plus_one == 0);
  CHECK(copied.function == nullptr);
}

// A launch recorded by a hook, drained back: its record's kind and size, and its values.
struct DrainedLaunch {
  RecordKind kind;
  size_t size;
  UnpackedLaunch launch;
};
DrainedLaunch RecordAndDrainLaunch(const void* function, uint64_t stream_plus_one,
                                   const LaunchGeometry& geometry) {
  DrainAll();
  ApiArguments arguments;
  arguments.stream_plus_one = stream_plus_one;
  arguments.function = function;
  arguments.launch = &geometry;
  RecordApiCall(1, 100, 200, 0, arguments);
  const auto records = DrainAll();
  REQUIRE(records.size() == 1);
  const Record& header = HeaderOf(records[0]);
  if (header.kind == RecordKind::kLaunch) {
    return {header.kind, header.size, UnpackLaunch(RecordAs<LaunchRecord>(header).launch)};
  }
  REQUIRE(header.kind == RecordKind::kApiCall);
  const ApiCallRecord& call = RecordAs<ApiCallRecord>(header);
  return {header.kind, header.size, {call.function, call.stream_plus_one, call.launch}};
}

TEST_CASE("a launch at the packed fields' limits is one line; one past them is whole") {
  ConfigureBuffers(8u << 20);
  // The largest values each packed field holds (record.h LaunchRecord): 20 bits of grid x,
  // 16 of grid y and z, block sizes 1..1024, 1..1024, 1..64, 18 bits of shared memory, and
  // 48-bit pointers.
  const void* top_function = reinterpret_cast<const void*>(uintptr_t{0x7FFFFFFFFFF0});
  const uint64_t top_stream = 0xFFFFFFFFFFFF;
  const LaunchGeometry largest{{1048575, 65535, 65535}, {1024, 1024, 64}, 262143, 0};
  DrainedLaunch drained = RecordAndDrainLaunch(top_function, top_stream, largest);
  CHECK(drained.kind == RecordKind::kLaunch);
  CHECK(drained.size == 64);
  CHECK(drained.launch.function == top_function);
  CHECK(drained.launch.stream_plus_one == top_stream);
  CHECK(std::memcmp(&drained.launch.geometry, &largest, sizeof(largest)) == 0);
  const LaunchGeometry smallest{{0, 0, 0}, {1, 1, 1}, 0, 0};
  drained = RecordAndDrainLaunch(top_function, 0, smallest);
  CHECK(drained.kind == RecordKind::kLaunch);
  CHECK(drained.launch.stream_plus_one == 0);
  CHECK(std::memcmp(&drained.launch.geometry, &smallest, sizeof(smallest)) == 0);

  // Each field one past its limit: recorded whole (104 bytes), every value as given.
  const LaunchGeometry beyond[] = {
      {{1048576, 1, 1}, {32, 1, 1}, 0, 0}, {{1, 65536, 1}, {32, 1, 1}, 0, 0},
      {{1, 1, 65536}, {32, 1, 1}, 0, 0},   {{1, 1, 1}, {1025, 1, 1}, 0, 0},
      {{1, 1, 1}, {1, 1025, 1}, 0, 0},     {{1, 1, 1}, {1, 1, 65}, 0, 0},
      {{1, 1, 1}, {0, 1, 1}, 0, 0},        {{1, 1, 1}, {32, 1, 1}, 262144, 0},
  };
  for (const LaunchGeometry& geometry : beyond) {
    INFO("grid " << geometry.grid[0] << "," << geometry.grid[1] << "," << geometry.grid[2]
                 << " block " << geometry.block[0] << "," << geometry.block[1] << ","
                 << geometry.block[2] << " shared " << geometry.shared_memory);
    drained = RecordAndDrainLaunch(top_function, 5, geometry);
    CHECK(drained.kind == RecordKind::kApiCall);
    CHECK(drained.size == 104);
    CHECK(drained.launch.function == top_function);
    CHECK(drained.launch.stream_plus_one == 5);
    CHECK(std::memcmp(&drained.launch.geometry, &geometry, sizeof(geometry)) == 0);
  }
  const void* high_function = reinterpret_cast<const void*>(uintptr_t{1} << 48);
  drained = RecordAndDrainLaunch(high_function, 5, largest);
  CHECK(drained.kind == RecordKind::kApiCall);
  CHECK(drained.launch.function == high_function);
  drained = RecordAndDrainLaunch(top_function, uint64_t{1} << 48, largest);
  CHECK(drained.kind == RecordKind::kApiCall);
  CHECK(drained.launch.stream_plus_one == uint64_t{1} << 48);
}

TEST_CASE("a named record's call stack follows its name") {
  ConfigureBuffers(8u << 20);
  DrainAll();
  const uint64_t frames[2] = {0x1234, 0x5678};
  size_t size;
  ApiCallRecord* record = BeginRecord<ApiCallRecord>("cudaFoo", &size, sizeof(frames));
  REQUIRE(record != nullptr);
  CHECK(size == 128);  // 104 + "cudaFoo" and its NUL (8) + two frames (16)
  AttachFrames(record, frames, 2);
  record->start_ns = record->end_ns = 1;
  CommitRecord(size);

  const auto records = DrainAll();
  REQUIRE(records.size() == 1);
  const Record& read = HeaderOf(records[0]);
  CHECK(std::string(read.name()) == "cudaFoo");
  REQUIRE(FrameCountOf(read) == 2);
  CHECK(FramesOf(read)[0] == 0x1234);
  CHECK(FramesOf(read)[1] == 0x5678);
}

// Each struct serves its own kinds only: BeginRecord<T, kind> with any other kind does not
// compile (the static_assert in BeginRecord reads these).
static_assert(RecordServes<MemoryRecord>(RecordKind::kMemory), "");
static_assert(!RecordServes<MemoryRecord>(RecordKind::kMemorySample), "");
static_assert(RecordServes<NamedRecord>(RecordKind::kThreadName), "");
static_assert(!RecordServes<NamedRecord>(RecordKind::kOperatorPushDetail), "");
static_assert(RecordServes<OperatorDetailRecord>(RecordKind::kOperatorRangeDetail), "");
static_assert(!RecordServes<OperatorDetailRecord>(RecordKind::kRangePush), "");
static_assert(RecordServes<OperatorRangeRecord>(RecordKind::kOperatorRange), "");
static_assert(!RecordServes<OperatorDetailRecord>(RecordKind::kOperatorRange), "");

TEST_CASE("memory, memory-sample and NCCL records come back through their own structs") {
  ConfigureBuffers(8u << 20);
  DrainAll();
  // As cudart_memory_hooks.cc writes a free on stream 5 (plus one) of device 1.
  size_t size;
  MemoryRecord* memory = BeginRecord<MemoryRecord>(nullptr, &size);
  REQUIRE(memory != nullptr);
  CHECK(size == 72);  // 40 + 4 words, no name
  memory->subkind = 2;
  memory->flags |= kRecordMemoryFree;
  memory->start_ns = memory->end_ns = 100;
  memory->address = 0xabc000;
  memory->bytes = 1 << 20;
  memory->device = 1;
  memory->reserved0 = 0;
  memory->stream_plus_one = 6;
  CommitRecord(size);
  // As prof_memory_sample writes it.
  MemorySampleRecord* sample = BeginRecord<MemorySampleRecord>(nullptr, &size);
  REQUIRE(sample != nullptr);
  CHECK(size == 72);
  sample->start_ns = sample->end_ns = 110;
  sample->device = 0;
  sample->allocated = 3000;
  sample->reserved = 4096;
  sample->peak = 3500;
  CommitRecord(size);
  // As nccl_hooks.cc writes an all-reduce on a known communicator.
  NcclCallRecord* nccl = BeginRecord<NcclCallRecord>(nullptr, &size);
  REQUIRE(nccl != nullptr);
  CHECK(size == 88);  // 40 + 6 words
  nccl->api = 4;
  nccl->status = 0;
  nccl->start_ns = 120;
  nccl->end_ns = 130;
  nccl->comm = 0x77;
  nccl->bytes = 4096;
  nccl->count = 1024;
  nccl->stream = 0x55;
  nccl->root_or_peer = -1;
  nccl->reduction = 0;
  nccl->data_type = 7;
  nccl->reserved0 = 0;
  nccl->sequence = 12;
  CommitRecord(size);

  const auto records = DrainAll();
  REQUIRE(records.size() == 3);
  const Record& memory_header = HeaderOf(records[0]);
  CHECK(memory_header.kind == RecordKind::kMemory);
  CHECK(memory_header.size == 72);
  CHECK(memory_header.subkind == 2);
  CHECK(memory_header.flags == kRecordMemoryFree);
  CHECK(std::string(memory_header.name()).empty());
  const MemoryRecord& freed = RecordAs<MemoryRecord>(memory_header);
  CHECK(freed.start_ns == 100);
  CHECK(freed.address == 0xabc000);
  CHECK(freed.bytes == 1 << 20);
  CHECK(freed.device == 1);
  CHECK(freed.stream_plus_one == 6);

  const Record& sample_header = HeaderOf(records[1]);
  CHECK(sample_header.kind == RecordKind::kMemorySample);
  const MemorySampleRecord& sampled = RecordAs<MemorySampleRecord>(sample_header);
  CHECK(sampled.start_ns == 110);
  CHECK(sampled.device == 0);
  CHECK(sampled.allocated == 3000);
  CHECK(sampled.reserved == 4096);
  CHECK(sampled.peak == 3500);

  const Record& nccl_header = HeaderOf(records[2]);
  CHECK(nccl_header.kind == RecordKind::kNcclCall);
  CHECK(nccl_header.size == 88);
  CHECK(nccl_header.api == 4);
  const NcclCallRecord& call = RecordAs<NcclCallRecord>(nccl_header);
  CHECK(call.end_ns - call.start_ns == 10);
  CHECK(call.comm == 0x77);
  CHECK(call.bytes == 4096);
  CHECK(call.count == 1024);
  CHECK(call.stream == 0x55);
  CHECK(call.root_or_peer == -1);
  CHECK(call.data_type == 7);
  CHECK(call.sequence == 12);
}

TEST_CASE("operator-detail records keep both kinds in one struct, texts after the header") {
  ConfigureBuffers(8u << 20);
  DrainAll();
  RecordOperatorRangeDetail("aten::mm", "[[2, 3], [3, 4]]", "float", "model.py(7)", 200, 150);
  RecordOperatorPushDetail("aten::relu", nullptr, "", "x.py(1)", 300);

  const auto records = DrainAll();
  REQUIRE(records.size() == 2);
  const Record& range = HeaderOf(records[0]);
  CHECK(range.kind == RecordKind::kOperatorRangeDetail);
  // 40 + "aten::mm\0[[2, 3], [3, 4]]\0float\0model.py(7)\0" (8+1+16+1+5+1+11+1 = 44), to 8
  CHECK(range.size == 88);
  CHECK(range.name_length == 43);
  CHECK(range.start_ns == 200);
  CHECK(range.end_ns == 200);  // an end before the start is clamped to it
  const OperatorDetailTexts texts = DetailTextsOf(RecordAs<OperatorDetailRecord>(range));
  CHECK(std::string(texts.name) == "aten::mm");
  CHECK(std::string(texts.shapes) == "[[2, 3], [3, 4]]");
  CHECK(std::string(texts.dtypes) == "float");
  CHECK(std::string(texts.source) == "model.py(7)");

  const Record& push = HeaderOf(records[1]);
  CHECK(push.kind == RecordKind::kOperatorPushDetail);
  CHECK(push.size == 64);  // 40 + "aten::relu\0\0\0x.py(1)\0" (10+1+1+1+7+1 = 21), to 8
  CHECK(push.start_ns == 300);
  CHECK(push.end_ns == 300);
  const OperatorDetailTexts pushed = DetailTextsOf(push);
  CHECK(std::string(pushed.name) == "aten::relu");
  CHECK(std::string(pushed.shapes).empty());
  CHECK(std::string(pushed.dtypes).empty());
  CHECK(std::string(pushed.source) == "x.py(1)");
}

TEST_CASE("a whole operator range is the header and its name only") {
  ConfigureBuffers(8u << 20);
  DrainAll();
  RecordOperatorRange("aten::addmm", 500, 900);
  RecordOperatorRange("aten::t", 1000, 990);
  RecordOperatorRange(nullptr, 1100, 1200);

  const auto records = DrainAll();
  REQUIRE(records.size() == 3);
  const Record& range = HeaderOf(records[0]);
  CHECK(range.kind == RecordKind::kOperatorRange);
  CHECK(range.size == 56);  // 40 + "aten::addmm\0" (12), to 8
  CHECK(range.name_length == 11);
  CHECK(std::string(RecordAs<OperatorRangeRecord>(range).name()) == "aten::addmm");
  CHECK(NameOf(RecordAs<OperatorRangeRecord>(range)) == "aten::addmm");  // the typed read
  CHECK(range.start_ns == 500);
  CHECK(range.end_ns == 900);
  const Record& clamped = HeaderOf(records[1]);
  CHECK(clamped.size == 48);  // 40 + "aten::t\0" (8)
  CHECK(clamped.start_ns == 1000);
  CHECK(clamped.end_ns == 1000);  // an end before the start is clamped to it
  const Record& unnamed = HeaderOf(records[2]);
  CHECK(unnamed.size == 40);
  CHECK(std::string(unnamed.name()).empty());
  CHECK(NameOf(RecordAs<OperatorRangeRecord>(unnamed)).empty());

  const std::string long_name(5000, 'x');  // past kMaxNameLength (4096): cut
  RecordOperatorRange(long_name.c_str(), 1, 2);
  const auto cut = DrainAll();
  REQUIRE(cut.size() == 1);
  CHECK(HeaderOf(cut[0]).name_length == 4096);
  CHECK(HeaderOf(cut[0]).size == 40 + 4104);  // 4096 + NUL, to 8
  CHECK(std::string(HeaderOf(cut[0]).name()) == std::string(4096, 'x'));
  CHECK(NameOf(RecordAs<OperatorRangeRecord>(HeaderOf(cut[0]))) == std::string(4096, 'x'));
}

TEST_CASE("an operator range's name is copied whole at every length the copy tells apart") {
  ConfigureBuffers(8u << 20);
  DrainAll();
  // The name is copied in words for 8-32 bytes (two words to 16, four to 32), else by
  // memcpy: each length about those bounds, its bytes all different, through both entries.
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const size_t lengths[] = {1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40};
  for (size_t length : lengths) {
    const std::string name = alphabet.substr(0, length);
    RecordOperatorRange(name.c_str(), 1, 2);
    RecordOperatorRange(name.c_str(), name.size(), 3, 4);
  }
  const auto records = DrainAll();
  REQUIRE(records.size() == 2 * std::size(lengths));
  for (size_t i = 0; i < records.size(); ++i) {
    const std::string expected = alphabet.substr(0, lengths[i / 2]);
    INFO(expected);
    const Record& range = HeaderOf(records[i]);
    CHECK(range.name_length == expected.size());
    CHECK(range.size == RecordSize(RecordKind::kOperatorRange, expected.size()));
    CHECK(std::string(range.name()) == expected);  // its NUL in place
  }
}

TEST_CASE("every kind's records start their name after the kind's own struct") {
  // By hand from record.h's layouts: a 40-byte header, then each kind's fields.
  CHECK(RecordTypeSize(RecordKind::kApiCall) == 40 + 4 * 8 + 32);
  CHECK(RecordTypeSize(RecordKind::kLaunch) == 40 + 3 * 8);
  CHECK(RecordTypeSize(RecordKind::kNcclCall) == 40 + 6 * 8);
  CHECK(RecordTypeSize(RecordKind::kMemory) == 40 + 4 * 8);
  CHECK(RecordTypeSize(RecordKind::kMemorySample) == 40 + 4 * 8);
  CHECK(RecordTypeSize(RecordKind::kStep) == 40 + 2 * 8);
  for (RecordKind kind : {RecordKind::kRangePush, RecordKind::kRangePop, RecordKind::kRangeStart,
                          RecordKind::kRangeEnd, RecordKind::kMark, RecordKind::kThreadName}) {
    CHECK(RecordTypeSize(kind) == 40 + 8);
  }
  CHECK(RecordTypeSize(RecordKind::kOperatorPushDetail) == 40);
  CHECK(RecordTypeSize(RecordKind::kOperatorRangeDetail) == 40);
  CHECK(RecordTypeSize(RecordKind::kOperatorRange) == 40);
  CHECK(RecordTypeSize(static_cast<RecordKind>(200)) == 0);
}

}  // namespace
}  // namespace prof
