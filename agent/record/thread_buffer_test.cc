#include "agent/record/thread_buffer.h"

#include <atomic>
#include <chrono>
#include <map>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/record/writer_doorbell.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

// Appends one record of `kind` carrying `sequence` and a name of `name_length` bytes, the
// way BeginRecord does (fallback included).
bool Append(ThreadBuffer& buffer, uint64_t sequence, size_t name_length,
            RecordKind kind = RecordKind::kApiCall) {
  const size_t size = RecordSize(kind, name_length);
  Record* record = buffer.Reserve(size);
  if (!record) record = buffer.ReserveFallback(kind, size);
  if (!record) return false;
  record->size = static_cast<uint16_t>(size);
  record->kind = kind;
  record->name_length = static_cast<uint32_t>(name_length);
  record->start_ns = sequence;
  if (name_length) {
    char* name = reinterpret_cast<char*>(record) + RecordTypeSize(kind);
    for (size_t i = 0; i < name_length; ++i) name[i] = static_cast<char>('a' + sequence % 26);
    name[name_length] = '\0';
  }
  buffer.Commit(size);
  return true;
}

// A pool of `chunks` chunks of its own (the tests do not share the process's pool).
struct TestPool {
  explicit TestPool(size_t chunks) { pool.Configure(chunks * kChunkBytes); }
  ChunkPool pool;
};

// Sums a buffer's losses by kind.
std::map<int32_t, uint64_t> Losses(ThreadBuffer& buffer,
                                   std::map<int64_t, uint64_t>* by_step = nullptr) {
  std::map<int32_t, uint64_t> losses;
  buffer.TakeLosses([&](int32_t kind, int64_t step, uint64_t count) {
    losses[kind] += count;
    if (by_step) (*by_step)[step] += count;
  });
  return losses;
}

TEST_CASE("records come out in order across many chunks, which go back to the pool") {
  TestPool test(4);
  ThreadBuffer buffer(1, &test.pool, 1000);
  uint64_t next_expected = 0;
  uint64_t written = 0;
  for (int round = 0; round < 300; ++round) {
    // Variable sizes end chunks at every possible offset; 3 chunks' worth per round at most.
    for (int i = 0; i < 500; ++i) REQUIRE(Append(buffer, written++, (round * 7 + i) % 90));
    buffer.Drain([&](const Record& record) {
      CHECK(record.start_ns == next_expected);
      CHECK(record.name()[record.name_length] == '\0');
      ++next_expected;
    });
    CHECK(buffer.chunks_held() == 1);  // the chunk being written stays with the thread
  }
  CHECK(next_expected == written);
  CHECK(Losses(buffer).empty());
  CHECK(buffer.empty());
  CHECK(test.pool.in_use() == 1);
}

TEST_CASE("one thread can use the whole pool, and counts what finds no room by step") {
  TestPool test(8);
  ThreadBuffer buffer(1, &test.pool, 1000);
  SetCurrentStep(3);
  uint64_t accepted = 0;
  for (uint64_t i = 0; i < 10000; ++i) accepted += Append(buffer, i, 0) ? 1 : 0;
  CHECK(test.pool.in_use() == 8);
  CHECK(buffer.chunks_held() == 8);
  // 8 chunks of kChunkPayload bytes, an unnamed API call record (40-byte header, 4 words,
  // 32-byte geometry: 104 bytes) each (hand arithmetic, not the code).
  CHECK(accepted == 8 * (kChunkPayload / 104));
  SetCurrentStep(4);
  for (uint64_t i = 0; i < 5; ++i) CHECK_FALSE(Append(buffer, 10000 + i, 0));
  std::map<int64_t, uint64_t> by_step;
  const auto losses = Losses(buffer, &by_step);
  // Step 3's count moved to the displaced table when step 4's first drop came; the
  // buffer's counter holds step 4's.
  CHECK(losses.at(schema::LOSS_KIND_HOST_BUFFER_FULL) == 5);
  uint64_t displaced_step3 = 0;
  TakeDisplacedLosses([&](int32_t, int64_t step, uint64_t count) {
    if (step == 3) displaced_step3 += count;
  });
  CHECK(displaced_step3 + by_step[3] == 10000 - accepted);
  CHECK(by_step[4] == 5);
  CHECK(Losses(buffer).empty());  // reading resets
  uint64_t expected = 0;
  buffer.Drain([&](const Record& record) { CHECK(record.start_ns == expected++); });
  CHECK(expected == accepted);
  CHECK(test.pool.in_use() == 1);
  SetCurrentStep(0);
}

TEST_CASE("with the pool exhausted, steps and ranges take the control ring, in time order") {
  TestPool test(1);
  ThreadBuffer buffer(1, &test.pool, 1000);
  uint64_t time = 0;
  while (Append(buffer, time, 0)) ++time;  // fills the one chunk; the next call is lost
  const uint64_t data_records = time;
  CHECK(Losses(buffer).at(schema::LOSS_KIND_HOST_BUFFER_FULL) == 1);
  // Ranges may fill half the control ring, steps all of it.
  int ranges = 0;
  while (Append(buffer, ++time, 0, RecordKind::kRangePush)) ++ranges;
  int steps = 0;
  while (Append(buffer, ++time, 0, RecordKind::kStep)) ++steps;
  // The chunk's 65472 bytes held 629 API calls of 104 bytes; a range push without a name
  // (the 40-byte header and its domain, 48 bytes) fits once in the 56 left, then 42 fit in
  // half of the 4096-byte ring (2016 bytes); a step (the header and two words, 56 bytes)
  // 37 times in the 2080 bytes left.
  CHECK(kChunkPayload == 65472);
  CHECK(kControlRingBytes == 4096);
  CHECK(data_records == 629);
  CHECK(ranges == 1 + 42);
  CHECK(steps == 37);
  const auto losses = Losses(buffer);
  CHECK(losses.at(schema::LOSS_KIND_HOST_RANGE_DROPPED) == 1);
  CHECK(losses.at(schema::LOSS_KIND_CONTROL_RECORD_LOST) == 1);
  std::vector<uint64_t> seen;
  buffer.Drain([&](const Record& record) { seen.push_back(record.start_ns); });
  CHECK(seen.size() == data_records + ranges + steps);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
}

TEST_CASE("data records drained in batches still interleave with control records by start") {
  TestPool test(1);
  ThreadBuffer buffer(1, &test.pool, 1000);
  uint64_t data_records = 0;
  while (Append(buffer, 10 * data_records, 0)) ++data_records;  // 0, 10, 20, ... (629)
  REQUIRE(data_records == 629);
  // A step fills the chunk's last 56 bytes (see the test above), in time order.
  REQUIRE(Append(buffer, 10 * data_records, 0, RecordKind::kStep));
  // Steps in the control ring, appended after the data but starting between its records;
  // the one at 50 ties with a data record, which goes first.
  for (uint64_t start : {25, 45, 50, 100000}) REQUIRE(Append(buffer, start, 0, RecordKind::kStep));
  std::vector<std::pair<uint64_t, bool>> seen;  // start, from the control ring
  auto visit = [&](const Record& record) {
    seen.emplace_back(record.start_ns, record.kind == RecordKind::kStep);
  };
  CHECK(buffer.DrainBefore(46, visit) == 7);
  using Seen = std::vector<std::pair<uint64_t, bool>>;
  CHECK(seen == Seen{{0, false}, {10, false}, {20, false}, {25, true}, {30, false},
                     {40, false}, {45, true}});
  seen.clear();
  CHECK(buffer.DrainBefore(61, visit) == 3);
  CHECK(seen == Seen{{50, false}, {50, true}, {60, false}});
  seen.clear();
  // The rest: data records 70 to 6280 (629 less the 7 drained), the step at 6290 that
  // filled the chunk, then the step at 100000.
  CHECK(buffer.Drain(visit) == 622 + 2);
  CHECK(seen.back() == std::pair<uint64_t, bool>{100000, true});
  CHECK(buffer.empty());
}

TEST_CASE("a bounded drain stops each ring at its first record at or after the bound") {
  TestPool test(2);
  ThreadBuffer buffer(1, &test.pool, 1000);
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

TEST_CASE("the append that makes a thread hold its high-water mark of chunks rings the writer") {
  TestPool test(8);
  ThreadBuffer buffer(1, &test.pool, 3);
  TheWriterDoorbell().Wait(0);  // clears an earlier ring
  const size_t per_chunk = kChunkPayload / RecordSize(RecordKind::kApiCall, 0);
  for (size_t i = 0; i < 2 * per_chunk; ++i) REQUIRE(Append(buffer, i, 0));  // 2 chunks
  REQUIRE(buffer.chunks_held() == 2);
  auto wait_ms = [] {
    const auto start = std::chrono::steady_clock::now();
    TheWriterDoorbell().Wait(2000000000);
    const auto waited = std::chrono::steady_clock::now() - start;
    return std::chrono::duration<double, std::milli>(waited).count();
  };
  CHECK(wait_ms() >= 1000);                   // not rung: the wait ran to its timeout (2 s)
  REQUIRE(Append(buffer, 2 * per_chunk, 0));  // the third chunk: the crossing append
  CHECK(wait_ms() < 1000);
}

TEST_CASE("a producer and the writer running concurrently lose nothing they do not count") {
  TestPool test(3);
  ThreadBuffer buffer(1, &test.pool, 2);
  constexpr uint64_t kRecords = 300000;
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
  uint64_t lost = 0;
  for (const auto& [kind, count] : Losses(buffer)) lost += count;
  TakeDisplacedLosses([&](int32_t, int64_t, uint64_t count) { lost += count; });
  CHECK(ordered);
  CHECK(drained == accepted);
  CHECK(accepted + lost == kRecords);
}

TEST_CASE("an exited thread's buffer gives its last chunk back once drained, then is adopted") {
  TestPool test(2);
  ThreadBuffer buffer(1, &test.pool, 1000);
  REQUIRE(Append(buffer, 1, 0));
  buffer.ReleaseIfExited();
  CHECK_FALSE(buffer.released());  // the owner lives
  buffer.owner_exited.store(true);
  buffer.ReleaseIfExited();
  CHECK_FALSE(buffer.released());  // a record is left
  CHECK(buffer.Drain([](const Record&) {}) == 1);
  buffer.ReleaseIfExited();
  CHECK(buffer.released());
  CHECK(test.pool.in_use() == 0);
  buffer.Adopt(2);
  CHECK(buffer.thread_id() == 2);
  REQUIRE(Append(buffer, 7, 0));
  std::vector<uint64_t> seen;
  buffer.Drain([&](const Record& record) { seen.push_back(record.start_ns); });
  CHECK(seen == std::vector<uint64_t>{7});
}

}  // namespace
}  // namespace prof
