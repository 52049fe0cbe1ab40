// The generator against a small .proto whose mirrors were checked by hand (testdata/
// tiny.proto and its *.golden headers), the same headers compiled (through the build's own
// genrule), and the one-line refusal of each .proto it cannot mirror.
#include "proto/gen/mirror_generator.h"

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "proto/gen/testdata/tiny_columns.h"
#include "proto/gen/testdata/tiny_enums.h"
#include "proto/gen/testdata/tiny_fields.h"

namespace prof::mirror_gen {
namespace {

constexpr char kTestdata[] = "proto/gen/testdata/";

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The descriptors of testdata/NAME.proto, from the descriptor set the build made of it.
const google::protobuf::FileDescriptor* Load(const std::string& name,
                                             google::protobuf::DescriptorPool* pool) {
  std::string error;
  const auto* file =
      LoadFile(Read(kTestdata + name + ".desc"), kTestdata + name + ".proto", pool, &error);
  INFO(error);
  REQUIRE(file != nullptr);
  return file;
}

TEST_CASE("the headers of a small .proto are the hand-checked ones") {
  google::protobuf::DescriptorPool pool;
  const auto* file = Load("tiny", &pool);
  REQUIRE(CheckMirrorable(*file).empty());
  const std::string dir = kTestdata;
  CHECK(FieldsHeader(*file, dir + "tiny_fields.h") == Read(dir + "tiny_fields.h.golden"));
  CHECK(EnumsHeader(*file, dir + "tiny_enums.h") == Read(dir + "tiny_enums.h.golden"));
  CHECK(ColumnsHeader(*file, dir + "tiny_columns.h", dir + "tiny_fields.h") ==
        Read(dir + "tiny_columns.h.golden"));
}

TEST_CASE("a column block is a message of packed columns and SparseColumns only") {
  google::protobuf::DescriptorPool pool;
  const auto* file = Load("tiny", &pool);
  CHECK(IsColumnBlock(*file->FindMessageTypeByName("Samples")));
  CHECK_FALSE(IsColumnBlock(*file->FindMessageTypeByName("SparseColumn")));
  CHECK_FALSE(IsColumnBlock(*file->FindMessageTypeByName("Holder")));  // a singular scalar
  CHECK_FALSE(IsColumnBlock(*file->FindMessageTypeByName("Header")));
}

// The build's own headers of tiny.proto (//proto/gen:tiny_mirrors), compiled here.
TEST_CASE("the generated headers compile and hold the schema's numbers") {
  static_assert(field::Header::kPid == 4);
  static_assert(field::Header::LabelsEntry::kValue == 2);
  static_assert(field::Samples::kNoteId == 4);
  static_assert(schema::COLOR_BLUE == 2);
  static_assert(sizeof(schema::Color) == 4);

  block_columns::Samples<std::string, std::string> samples;
  samples.time_delta_ns = "time";
  samples.color = "color";
  samples.value = "value";
  samples.note_id = "note";
  std::vector<std::pair<uint32_t, std::string>> visited;
  decltype(samples)::Fields(samples, [&visited](uint32_t number, const std::string& column) {
    visited.emplace_back(number, column);
  });
  const std::vector<std::pair<uint32_t, std::string>> expected = {
      {1, "time"}, {2, "color"}, {3, "value"}, {4, "note"}};
  CHECK(visited == expected);
}

TEST_CASE("a .proto that cannot be mirrored is refused with one line naming what and why") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"stale_next_id",
       "stale_next_id.proto: Kernels: its note says \"Next id: 3\" but the next free field "
       "number is 4"},
      {"oneof", "oneof.proto: Kernels.start: oneof is not mirrored"},
      {"unpacked_column",
       "unpacked_column.proto: Kernels.duration_ns: a column block's repeated fields must be "
       "packed varints, not unpacked uint64"},
      {"nested_message", "nested_message.proto: Kernels.Launch: nested messages are not mirrored"},
      {"double_field", "double_field.proto: Kernels.occupancy: type double has no writer"},
      {"keyword_name", "keyword_name.proto: Kernels.register: a C++ keyword cannot name"},
      {"proto2", "proto2.proto: only proto3 is mirrored"},
  };
  for (const auto& [name, expected] : cases) {
    google::protobuf::DescriptorPool pool;
    const std::string problem = CheckMirrorable(*Load(name, &pool));
    INFO(name << ": " << problem);
    CHECK(problem.find(kTestdata + expected) == 0);
    CHECK(problem.find('\n') == std::string::npos);
  }
}

TEST_CASE("a descriptor set that is not one, or lacks the file, is refused") {
  google::protobuf::DescriptorPool pool;
  std::string error;
  CHECK(LoadFile("\xff\xff not a descriptor set", "a.proto", &pool, &error) == nullptr);
  CHECK(error.find("not a serialized FileDescriptorSet") != std::string::npos);
  google::protobuf::DescriptorPool other;
  CHECK(LoadFile(Read(std::string(kTestdata) + "tiny.desc"), "absent.proto", &other, &error) ==
        nullptr);
  CHECK(error == "absent.proto: not in the descriptor set");
}

TEST_CASE("snake_case field names become the k-constants' CamelCase") {
  CHECK(CamelCase("start_delta_ns") == "StartDeltaNs");
  CHECK(CamelCase("grid_x") == "GridX");
  CHECK(CamelCase("id") == "Id");
}

}  // namespace
}  // namespace prof::mirror_gen
