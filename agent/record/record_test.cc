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
  RecordNamed(RecordKind::kRangePush, 3, "step", 10, 0, kDomain);
  RecordNamed(RecordKind::kRangePop, 0, nullptr, 20, 0);
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
  ApiCallRecord* record =
      BeginRecord<ApiCallRecord>(RecordKind::kApiCall, "cudaFoo", &size, sizeof(frames));
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
