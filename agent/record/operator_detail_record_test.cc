// kOperatorPushDetail records: the four texts are stored NUL-separated after the record
// and read back by DetailTextsOf, null and empty texts alike, long ones cut.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"

namespace prof {
namespace {

struct Texts {
  std::string name, shapes, dtypes, source;
  size_t size = 0;
};

// Records on this thread, then drains every buffer and returns the detail records.
std::vector<Texts> DrainDetails() {
  std::vector<Texts> found;
  ForEachBuffer([&](ThreadBuffer& buffer) {
    buffer.Drain([&](const Record& record) {
      if (record.kind != RecordKind::kOperatorPushDetail) return;
      const OperatorDetailTexts texts = DetailTextsOf(record);
      found.push_back({texts.name, texts.shapes, texts.dtypes, texts.source, record.size});
    });
  });
  return found;
}

TEST_CASE("operator detail records keep name, shapes, dtypes and source") {
  ConfigureBuffers(8u << 20);
  RecordOperatorPushDetail("aten::mm", "[[4, 8], [8, 2]]", "[float, float]", "train.py:42", 7);
  RecordOperatorPushDetail("aten::relu", nullptr, "", nullptr, 8);
  RecordOperatorPushDetail(nullptr, nullptr, nullptr, "x.py:1", 9);
  const std::string long_shapes(10000, '[');
  RecordOperatorPushDetail("aten::cat", long_shapes.c_str(), "d", "s", 10);
  const std::vector<Texts> found = DrainDetails();
  REQUIRE(found.size() == 4);
  CHECK(found[0].name == "aten::mm");
  CHECK(found[0].shapes == "[[4, 8], [8, 2]]");
  CHECK(found[0].dtypes == "[float, float]");
  CHECK(found[0].source == "train.py:42");
  CHECK(found[1].name == "aten::relu");
  CHECK(found[1].shapes.empty());
  CHECK(found[1].dtypes.empty());
  CHECK(found[1].source.empty());
  CHECK(found[2].name.empty());
  CHECK(found[2].source == "x.py:1");
  CHECK(found[3].shapes.size() == kMaxNameLength);  // cut, and the texts after it intact
  CHECK(found[3].dtypes == "d");
  CHECK(found[3].source == "s");
  // Record size: the 40-byte header, 8 + 16 + 14 + 11 text bytes and 4 NULs (93), rounded
  // up to 8.
  CHECK(found[0].size == 96);
}

}  // namespace
}  // namespace prof
