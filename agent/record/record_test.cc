// The typed records (record.h) as the recorder writes them (recorder.h): each kind's
// fields, name and call stack read back from the ring through its own struct, at the size
// its struct gives it (sizes by hand from the layout, not from the code).
#include "agent/record/record.h"

#include <cstring>
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
  REQUIRE(launch_header.kind == RecordKind::kApiCall);
  const ApiCallRecord& call = RecordAs<ApiCallRecord>(launch_header);
  CHECK(call.size == 104);
  CHECK(call.api == 17);
  CHECK(call.status == 2);
  CHECK(call.stream_plus_one == 9);
  CHECK(call.function == &kKernel);
  CHECK(call.launch.grid[1] == 3);
  CHECK(call.launch.block[0] == 32);
  CHECK(call.launch.shared_memory == 256);

  const ApiCallRecord& copied = RecordAs<ApiCallRecord>(HeaderOf(records[4]));
  CHECK(copied.bytes == 4096);
  CHECK(copied.copy_kind_plus_one == 3);
  CHECK(copied.stream_plus_one == 0);
  CHECK(copied.function == nullptr);
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

TEST_CASE("every kind's records start their name after the kind's own struct") {
  // By hand from record.h's layouts: a 40-byte header, then each kind's fields.
  CHECK(RecordTypeSize(RecordKind::kApiCall) == 40 + 4 * 8 + 32);
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
  CHECK(RecordTypeSize(static_cast<RecordKind>(200)) == 0);
}

}  // namespace
}  // namespace prof
