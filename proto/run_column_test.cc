// Run-length columns (trace.proto, format version 2): the encoder's choice between a plain
// column and runs, what a launch loop's chunk holds, the decoder's checks of runs, and the
// schema's numbering convention that the encoder and decoder rely on.
#include "proto/run_column.h"

#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/testing/event_strings.h"
#include "proto/trace.pb.h"

namespace prof {
namespace {

using chunk_blocks::RunColumn;

std::string Bytes(const RunColumn& column) { return std::string(column.packed().bytes().view()); }

// `values` added to a column and settled as field 3 with its lengths as field 19: the
// column's bytes and the lengths' bytes.
std::pair<std::string, std::string> Settled(const std::vector<uint64_t>& values) {
  wire::PackedColumn scratch;
  RunColumn column, lengths;
  column.Reserve(values.size());
  for (uint64_t value : values) column.AddRepeating(value);
  column.SettleRuns(3, 19, &lengths, &scratch);
  return {Bytes(column), Bytes(lengths)};
}

TEST_CASE("a column that repeats is rewritten as runs only when that is smaller") {
  wire::PackedColumn scratch;
  RunColumn column, lengths;
  column.Reserve(12);  // the adds write in room made beforehand (as NewRow does)
  for (int i = 0; i < 10; ++i) column.AddRepeating(5);
  column.AddRepeating(7);
  column.AddRepeating(7);
  // Plain: tag, length, 12 one-byte values = 14 bytes. Runs: field 3 (tag, length, 5, 7) =
  // 4 bytes and field 19 (two-byte tag, length, 10, 2) = 5 bytes: 9.
  column.SettleRuns(3, 19, &lengths, &scratch);
  CHECK(Bytes(column) == std::string("\x05\x07", 2));
  CHECK(Bytes(lengths) == std::string("\x0a\x02", 2));

  RunColumn alternating, unused;
  alternating.Reserve(12);
  for (int i = 0; i < 12; ++i) alternating.AddRepeating(i % 2);
  // 12 runs of 1: more than half the values start a run (and 14 + 16 bytes against 14).
  alternating.SettleRuns(3, 19, &unused, &scratch);
  CHECK(alternating.count() == 12);
  CHECK(unused.count() == 0);

  // 5 equal values: 7 bytes plain, 3 (tag, length, 1) + 4 (two-byte tag, length, 5) as
  // runs: a tie keeps the plain column; a sixth value tips it.
  RunColumn tie, tie_lengths;
  tie.Reserve(5);
  for (int i = 0; i < 5; ++i) tie.AddRepeating(1);
  tie.SettleRuns(3, 19, &tie_lengths, &scratch);
  CHECK(tie.count() == 5);
  CHECK(tie_lengths.count() == 0);
  RunColumn six, six_lengths;
  six.Reserve(6);
  for (int i = 0; i < 6; ++i) six.AddRepeating(1);
  six.SettleRuns(3, 19, &six_lengths, &scratch);
  CHECK(Bytes(six) == "\x01");
  CHECK(Bytes(six_lengths) == "\x06");
}

// Columns of one run are settled without reading their values back; the others are read.
// Each case: the runs expected by hand, one-byte values and lengths below 128 except 300
// (varint 0xac 0x02).
TEST_CASE("columns of one run and of two runs settle to their runs") {
  struct Case {
    std::vector<uint64_t> values;
    std::string runs;
    std::string lengths;
  };
  std::vector<uint64_t> zeros(300, 0), nines(300, 9), zeros_then_nines(10, 0),
      nines_then_one(20, 9);
  zeros_then_nines.insert(zeros_then_nines.end(), 20, 9);
  nines_then_one.push_back(1);
  std::vector<uint64_t> row_deltas(30, 1);  // a sparse column's rows: 0, then 29 of 1
  row_deltas[0] = 0;
  const Case cases[] = {
      {zeros, std::string("\x00", 1), "\xac\x02"},
      {nines, "\x09", "\xac\x02"},
      {zeros_then_nines, std::string("\x00\x09", 2), std::string("\x0a\x14", 2)},
      {nines_then_one, "\x09\x01", "\x14\x01"},
      {row_deltas, std::string("\x00\x01", 2), std::string("\x01\x1d", 2)},
  };
  for (const Case& each : cases) {
    const auto [runs, lengths] = Settled(each.values);
    CHECK(runs == each.runs);
    CHECK(lengths == each.lengths);
  }
}

// A column whose values all take one byte is settled from its bytes, eight at a time:
// runs that end inside a word, at its end and across words, and a last one that ends short
// of a word; the same runs with one value of two bytes (300) take the general path.
TEST_CASE("columns of one-byte values settle to the runs found by hand") {
  const std::vector<std::pair<uint64_t, size_t>> runs = {{1, 1}, {2, 7},    {1, 8},
                                                         {5, 9}, {127, 17}, {0, 3}};
  std::vector<uint64_t> values;
  for (const auto& [value, length] : runs) values.insert(values.end(), length, value);
  std::vector<uint64_t> with_wide = values;
  for (size_t i = 16; i < 25; ++i) with_wide[i] = 300;  // the run of 5s: 9 values of 300
  const struct {
    const std::vector<uint64_t>& values;
    std::string runs;
  } cases[] = {{values, std::string("\x01\x02\x01\x05\x7f\x00", 6)},
               {with_wide, std::string("\x01\x02\x01\xac\x02\x7f\x00", 7)}};
  for (const auto& each : cases) {
    const auto [runs, lengths] = Settled(each.values);
    CHECK(runs == each.runs);
    CHECK(lengths == std::string("\x01\x07\x08\x09\x11\x03", 6));
  }
}

// One thread launching the same kernel on one stream, 1 us apart: what the paced launcher
// gives the encoder for each launch.
ApiCallEvent Launch(int i, StringId name, KernelConfigId config) {
  ApiCallEvent call;
  call.thread_id = 42;
  call.start_ns = 1000000 + 1000 * i;
  call.duration_ns = 400 + i % 3;
  call.name = name;
  call.correlation_id = 7 + i;
  call.stream = 0x51a0000001a0ull;  // a pointer-sized stream handle
  call.kernel_config = config;
  return call;
}

TEST_CASE("a launch loop's names, correlation ids, streams and configurations cost nothing a row") {
  ChunkEncoder encoder;
  const StringId name = encoder.InternString("cudaLaunchKernel");
  const KernelConfigId config = encoder.InternKernelConfig(KernelConfigValue{});
  std::vector<std::string> expected;
  for (int i = 0; i < 1000; ++i) {
    encoder.AddApiCall(Launch(i, name, config));
    expected.push_back(testing::Describe(Launch(i, name, config)));
  }
  const std::string_view bytes = encoder.Finish(true);
  trace::Chunk chunk;
  REQUIRE(chunk.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  const trace::ApiCalls& calls = chunk.threads(0).api_calls();
  CHECK(std::vector<uint32_t>(calls.name_id().begin(), calls.name_id().end()) ==
        std::vector<uint32_t>{name});
  CHECK(std::vector<uint32_t>(calls.name_id_runs().begin(), calls.name_id_runs().end()) ==
        std::vector<uint32_t>{1000});
  // The first delta is the id itself (7), then 999 deltas of 1.
  CHECK(std::vector<int64_t>(calls.correlation_id_delta().begin(),
                             calls.correlation_id_delta().end()) == std::vector<int64_t>{7, 1});
  CHECK(std::vector<uint32_t>(calls.correlation_id_delta_runs().begin(),
                              calls.correlation_id_delta_runs().end()) ==
        std::vector<uint32_t>{1, 999});
  CHECK(calls.stream().value_size() == 1);
  CHECK(calls.stream().value_runs(0) == 1000);
  CHECK(calls.stream().index_delta_runs_size() == 2);  // row 0, then 999 rows of 1
  CHECK(calls.kernel_config_id().value_runs(0) == 1000);
  // What is left a row: the start delta (2000 zigzag: 2 bytes) and the duration (2 bytes);
  // plain, the name, correlation delta, stream (index 1, value 7) and configuration
  // (index 1, value 1) would add 12 more.
  CHECK(calls.ByteSizeLong() < 4 * 1000 + 100);

  testing::RecordingSink sink;
  const ChunkDecodeStats stats = DecodeChunk(chunk, &sink);
  CHECK(stats.first_problem.empty());
  CHECK(sink.events == expected);
}

trace::Chunk LaunchChunk(int launches) {
  ChunkEncoder encoder;
  for (int i = 0; i < launches; ++i) encoder.AddApiCall(Launch(i, 3, 4));
  const std::string_view bytes = encoder.Finish(true);
  trace::Chunk chunk;
  REQUIRE(chunk.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  REQUIRE(chunk.threads(0).api_calls().name_id_runs_size() == 1);
  return chunk;
}

TEST_CASE("runs that do not fit their column skip the block, and are counted") {
  trace::Chunk zero = LaunchChunk(50);
  zero.mutable_threads(0)->mutable_api_calls()->add_name_id(3);
  zero.mutable_threads(0)->mutable_api_calls()->add_name_id_runs(0);  // a run of no rows
  trace::Chunk longer = LaunchChunk(50);
  longer.mutable_threads(0)->mutable_api_calls()->set_name_id_runs(0, 51);  // 51 of 50 rows
  trace::Chunk unpaired = LaunchChunk(50);
  unpaired.mutable_threads(0)->mutable_api_calls()->add_name_id(9);  // a value without a run
  for (const trace::Chunk* chunk : {&zero, &longer, &unpaired}) {
    testing::RecordingSink sink;
    const ChunkDecodeStats stats = DecodeChunk(*chunk, &sink);
    CHECK(stats.malformed_blocks == 1);
    CHECK(stats.events == 0);
    // Runs summing to the wrong count make a column of another length than the others.
    CHECK(stats.first_problem.find(chunk == &longer ? "ApiCalls block has columns of different"
                                                    : "ApiCalls block: the runs of name_id") !=
          std::string::npos);
  }
}

TEST_CASE("a sparse column whose runs do not fit is ignored and counted, its block decodes") {
  trace::Chunk chunk = LaunchChunk(50);
  trace::SparseColumn* stream = chunk.mutable_threads(0)->mutable_api_calls()->mutable_stream();
  stream->set_value_runs(0, 49);  // 49 values for 50 index entries
  testing::RecordingSink sink;
  const ChunkDecodeStats stats = DecodeChunk(chunk, &sink);
  CHECK(stats.malformed_columns == 1);
  CHECK(stats.events == 50);
  REQUIRE(sink.events.size() == 50);
  CHECK(sink.events[49].find("stream=-") != std::string::npos);
}

// chunk_blocks.h pairs a block column numbered N with the companion numbered N + 16 and
// the decoder checks the name too: every `_runs` field of trace.proto must follow both.
TEST_CASE("every run-length companion is named and numbered after its column") {
  const google::protobuf::FileDescriptor& file = *trace::Chunk::descriptor()->file();
  int companions = 0;
  for (int m = 0; m < file.message_type_count(); ++m) {
    const google::protobuf::Descriptor& message = *file.message_type(m);
    const int offset = message.name() == "SparseColumn" ? 2 : 16;
    for (int f = 0; f < message.field_count(); ++f) {
      const google::protobuf::FieldDescriptor& runs = *message.field(f);
      const std::string& name = runs.name();
      if (name.size() <= 5 || name.compare(name.size() - 5, 5, "_runs") != 0) continue;
      INFO(message.name() << "." << name);
      const auto* column = message.FindFieldByName(name.substr(0, name.size() - 5));
      REQUIRE(column != nullptr);
      CHECK(runs.number() == column->number() + offset);
      CHECK(column->number() < 16);
      CHECK(runs.type() == google::protobuf::FieldDescriptor::TYPE_UINT32);
      CHECK(runs.is_packed());
      ++companions;
    }
  }
  CHECK(companions == 16);  // 14 block columns and SparseColumn's 2
}

}  // namespace
}  // namespace prof
