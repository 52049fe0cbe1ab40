// Operator range records (kOperatorRange) through RecordOperatorRange's two paths: the
// common one (room in the chunk, no errno kept) and the rare one (a thread's first record,
// a full chunk, a pool with no chunk left), which must leave the program's errno as it was
// and write the same bytes as the common one.
#include <errno.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"

namespace prof {
namespace {

constexpr int kMarker = 12345;  // not an errno value any library call sets

// Names of every length class the record's copy treats apart: none, under 8, 8, 9-16,
// 17-32, 32, longer, and one over kMaxNameLength (cut).
std::vector<std::string> Names() {
  return {"",
          "mm",
          "aten::mm",
          "aten::addmm_out0",
          "aten::linear_b",
          "aten::convolution_backward_0",
          "aten::_convolution_backward_inp",  // 31
          "aten::_native_batch_norm_legit_x",
          "aten::a_name_longer_than_thirty_two_bytes",
          std::string(kMaxNameLength + 100, 'x')};
}

struct Seen {
  std::string name;
  uint32_t name_length;
  uint64_t start_ns, end_ns;
  std::vector<uint8_t> header;  // the record's first 40 bytes less the times
};

Seen SeenOf(const Record& record) {
  Seen seen{record.name(), record.name_length, record.start_ns, record.end_ns, {}};
  Record copy = record;
  copy.start_ns = copy.end_ns = 0;
  const auto* bytes = reinterpret_cast<const uint8_t*>(&copy);
  seen.header.assign(bytes, bytes + sizeof(Record));
  return seen;
}

TEST_CASE("operator ranges: a first, a chunk-crossing and a lost record keep errno, same bytes") {
  ConfigureBuffers(8u << 20);
  const std::vector<std::string> names = Names();
  // More records than the pool holds (8 MiB, 56-4200 bytes a record): the thread's first
  // record makes its buffer, about a hundred chunks are crossed, and the rest are lost.
  constexpr int kRecords = 200000;
  int changed = 0;
  std::thread([&] {
    for (int i = 0; i < kRecords; ++i) {
      const std::string& name = names[i % names.size()];
      const uint64_t start = 1000 + i;
      // Every seventh ends before it starts: clamped to its start.
      const uint64_t end = i % 7 == 0 ? start - 1 : start + 5;
      errno = kMarker;
      RecordOperatorRange(name.empty() ? nullptr : name.c_str(), name.size(), start, end);
      if (errno != kMarker) ++changed;
    }
  }).join();
  CHECK(changed == 0);

  std::vector<Seen> seen;
  uint64_t lost = 0;
  ForEachBuffer([&](ThreadBuffer& buffer) {
    buffer.Drain([&](const Record& record) {
      if (record.kind == RecordKind::kOperatorRange) seen.push_back(SeenOf(record));
    });
    buffer.TakeLosses([&](int32_t, int64_t, uint64_t count) { lost += count; });
  });
  REQUIRE(seen.size() > 2 * kChunkPayload / 56);  // chunks were crossed
  CHECK(lost > 0);                                // and the pool ran out
  CHECK(seen.size() + lost == kRecords);
  // A lost record leaves room that later, smaller ones take: each is known by its start.
  std::vector<const Seen*> first_of_name(names.size(), nullptr);
  uint64_t last_start = 0;
  for (const Seen& record : seen) {
    const uint64_t i = record.start_ns - 1000;
    REQUIRE(i < uint64_t{kRecords});
    CHECK(record.start_ns > last_start);
    last_start = record.start_ns;
    const std::string& name = names[i % names.size()];
    const size_t length = std::min(name.size(), kMaxNameLength);
    INFO("record " << i << ", a name of " << name.size() << " bytes");
    REQUIRE(record.name == name.substr(0, length));
    CHECK(record.name_length == length);
    CHECK(record.end_ns == (i % 7 == 0 ? record.start_ns : record.start_ns + 5));
    // The same name's first record (the thread's first took the rare path, as did each
    // chunk's first) against this one: the same header.
    const Seen*& first = first_of_name[i % names.size()];
    if (first == nullptr) first = &record;
    CHECK(record.header == first->header);
  }
  CHECK(seen[0].header.size() == sizeof(Record));
}

}  // namespace
}  // namespace prof
