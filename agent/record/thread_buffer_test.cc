#include "agent/record/thread_buffer.h"

#include <atomic>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

// Appends one record carrying `sequence` and a name of `name_length` bytes.
bool Append(ThreadBuffer& buffer, uint64_t sequence, size_t name_length) {
  const size_t size = RecordSize(name_length);
  Record* record = buffer.Reserve(size);
  if (!record) return false;
  record->size = static_cast<uint16_t>(size);
  record->kind = RecordKind::kMark;
  record->name_length = static_cast<uint32_t>(name_length);
  record->start_ns = sequence;
  char* name = const_cast<char*>(record->name());
  for (size_t i = 0; i < name_length; ++i) name[i] = static_cast<char>('a' + sequence % 26);
  name[name_length] = '\0';
  buffer.Commit(size);
  return true;
}

TEST_CASE("records come out in order, across many wrap-arounds") {
  ThreadBuffer buffer(1, 4096);
  uint64_t next_expected = 0;
  uint64_t written = 0;
  for (int round = 0; round < 1000; ++round) {
    // Variable sizes make the ring wrap at every possible offset.
    for (int i = 0; i < 3; ++i) REQUIRE(Append(buffer, written++, (round * 7 + i) % 90));
    buffer.Drain([&](const Record& record) {
      CHECK(record.start_ns == next_expected);
      CHECK(record.name()[record.name_length] == '\0');
      ++next_expected;
    });
  }
  CHECK(next_expected == written);
  CHECK(buffer.TakeDropped() == 0);
  CHECK(buffer.empty());
}

TEST_CASE("a bounded drain stops at the first record starting at or after its bound") {
  ThreadBuffer buffer(1, 4096);
  // Start times as appended: 10, 20, 35, 30 (an outer call appended after an inner one), 40.
  for (uint64_t start : {10, 20, 35, 30, 40}) REQUIRE(Append(buffer, start, 3));
  std::vector<uint64_t> seen;
  auto visit = [&](const Record& record) { seen.push_back(record.start_ns); };
  CHECK(buffer.DrainBefore(10, visit) == 0);  // the bound is exclusive
  CHECK(buffer.DrainBefore(34, visit) == 2);
  CHECK(seen == std::vector<uint64_t>{10, 20});
  CHECK(buffer.DrainBefore(34, visit) == 0);  // 35 holds back 30 behind it
  CHECK(buffer.DrainBefore(40, visit) == 2);
  CHECK(seen == std::vector<uint64_t>{10, 20, 35, 30});
  CHECK_FALSE(buffer.empty());
  CHECK(buffer.Drain(visit) == 1);
  CHECK(buffer.empty());
}

TEST_CASE("a bounded drain skips the padding at the ring's end") {
  ThreadBuffer buffer(1, 1024);
  uint64_t next = 0, drained = 0;
  for (int round = 0; round < 200; ++round) {
    // Variable sizes make the ring wrap at every possible offset; the last record of each
    // round starts after the bound and waits for the next round.
    for (int i = 0; i < 3; ++i) REQUIRE(Append(buffer, next++, (round * 5 + i) % 60));
    buffer.DrainBefore(next - 1, [&](const Record& record) { CHECK(record.start_ns == drained++); });
    CHECK(drained == next - 1);
  }
}

TEST_CASE("a full ring drops and counts, never overwrites") {
  ThreadBuffer buffer(1, 4096);
  uint64_t accepted = 0;
  for (uint64_t i = 0; i < 1000; ++i) accepted += Append(buffer, i, 0) ? 1 : 0;
  CHECK(accepted < 1000);
  CHECK(buffer.TakeDropped() == 1000 - accepted);
  CHECK(buffer.TakeDropped() == 0);  // reading resets
  uint64_t expected = 0;
  buffer.Drain([&](const Record& record) { CHECK(record.start_ns == expected++); });
  CHECK(expected == accepted);
}

TEST_CASE("a producer and the writer running concurrently lose nothing they do not count") {
  ThreadBuffer buffer(1, 64 << 10);
  constexpr uint64_t kRecords = 200000;
  std::atomic<bool> done{false};
  uint64_t accepted = 0;
  std::thread producer([&] {
    for (uint64_t i = 0; i < kRecords; ++i) accepted += Append(buffer, i, i % 40) ? 1 : 0;
    done.store(true);
  });
  uint64_t drained = 0;
  uint64_t last = 0;
  bool ordered = true;
  auto visit = [&](const Record& record) {
    if (drained > 0 && record.start_ns <= last) ordered = false;
    last = record.start_ns;
    ++drained;
  };
  while (!done.load()) buffer.Drain(visit);
  producer.join();
  buffer.Drain(visit);
  CHECK(ordered);
  CHECK(drained == accepted);
  CHECK(accepted + buffer.TakeDropped() == kRecords);
}

}  // namespace
}  // namespace prof
