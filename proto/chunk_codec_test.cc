#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/chunk_encoder_inline.h"
#include "proto/file_dictionary.h"
#include "proto/testing/event_strings.h"
#include "proto/testing/sample_trace.h"

namespace prof {
namespace {

using testing::RecordingSink;

// Parses the encoder's bytes with libprotobuf.
trace::Chunk Parse(std::string_view bytes) {
  trace::Chunk chunk;
  REQUIRE(chunk.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  return chunk;
}

// Serializes and parses `chunk`, as the file would, then decodes it.
ChunkDecodeStats DecodeThroughBytes(const trace::Chunk& chunk, FileDictionary* dictionary,
                                    RecordingSink* sink) {
  std::string bytes;
  REQUIRE(chunk.SerializeToString(&bytes));
  trace::Chunk parsed;
  REQUIRE(parsed.ParseFromString(bytes));
  dictionary->AddDefinitions(parsed);
  return DecodeChunk(parsed, sink);
}

ChunkDecodeStats DecodeThroughBytes(std::string_view bytes, FileDictionary* dictionary,
                                    RecordingSink* sink) {
  return DecodeThroughBytes(Parse(bytes), dictionary, sink);
}

std::vector<std::string> Sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_CASE("operator details (shapes, dtypes, source) round-trip on the rows that have them") {
  ChunkEncoder encoder;
  HostRangeEvent plain;
  plain.thread_id = 3;
  plain.start_ns = 100;
  plain.duration_ns = 50;
  plain.name = encoder.InternString("aten::mm");
  plain.kind = schema::RANGE_KIND_OPERATOR;
  HostRangeEvent detailed = plain;
  detailed.start_ns = 200;
  detailed.shapes = encoder.InternString("[[4, 8], [8, 2]]");
  detailed.dtypes = encoder.InternString("[float, float]");
  detailed.source = encoder.InternString("train.py:42");
  HostRangeEvent source_only = plain;
  source_only.start_ns = 300;
  source_only.source = detailed.source;
  std::vector<std::string> expected;
  for (const HostRangeEvent* event : {&plain, &detailed, &source_only}) {
    encoder.AddHostRange(*event);
    expected.push_back(testing::Describe(*event));
  }
  FileDictionary dictionary;
  RecordingSink sink;
  const ChunkDecodeStats stats = DecodeThroughBytes(encoder.Finish(true), &dictionary, &sink);
  CHECK(stats.malformed_columns == 0);
  CHECK(sink.events == expected);
  CHECK(dictionary.String(detailed.shapes) == "[[4, 8], [8, 2]]");
}

TEST_CASE("rows after one with sparse values decode with their fields' defaults") {
  // The decoder sets an event's sparse fields only on the rows that have a value and on the
  // row after: a row of defaults must not keep the values of the row before it.
  ChunkEncoder encoder;
  ApiCallEvent plain;
  plain.thread_id = 3;
  plain.duration_ns = 5;
  plain.name = encoder.InternString("cudaLaunchKernel");
  ApiCallEvent full = plain;
  full.domain = schema::API_DOMAIN_DRIVER;
  full.status = 2;
  full.stream = 7;
  full.bytes = 4096;
  full.copy_kind = schema::COPY_KIND_HOST_TO_DEVICE;
  full.kernel_config = 9;
  full.call_stack = 11;
  ApiCallEvent stream_only = plain;
  stream_only.stream = 0;
  KernelEvent kernel;
  kernel.where = {0, 1, 7, schema::CLOCK_DOMAIN_CUPTI};
  kernel.duration_ns = 3;
  KernelEvent in_graph = kernel;
  in_graph.graph_id = 1;
  in_graph.graph_node_id = 2;
  in_graph.launch_type = 3;
  std::vector<std::string> expected;
  int row = 0;
  for (const ApiCallEvent* event :
       {&plain, &full, &plain, &plain, &stream_only, &full, &full, &plain, &stream_only}) {
    ApiCallEvent at = *event;
    at.start_ns = 100 * ++row;
    at.correlation_id = row;
    encoder.AddApiCall(at);
    expected.push_back(testing::Describe(at));
  }
  for (const KernelEvent* event : {&in_graph, &kernel, &kernel, &in_graph, &kernel}) {
    KernelEvent at = *event;
    at.start_ns = 100 * ++row;
    at.correlation_id = row;
    encoder.AddKernel(at);
    expected.push_back(testing::Describe(at));
  }
  FileDictionary dictionary;
  RecordingSink sink;
  const ChunkDecodeStats stats = DecodeThroughBytes(encoder.Finish(true), &dictionary, &sink);
  CHECK(stats.malformed_columns == 0);
  CHECK(sink.events == expected);
}

TEST_CASE("every event kind round-trips with and without its optional fields") {
  ChunkEncoder encoder;
  std::vector<std::string> expected;
  testing::AddEveryEventKind(&encoder, 7, 40, &expected);
  REQUIRE(encoder.pending_events() == expected.size());

  FileDictionary dictionary;
  RecordingSink sink;
  const ChunkDecodeStats stats = DecodeThroughBytes(encoder.Finish(true), &dictionary, &sink);
  CHECK(stats.malformed_blocks == 0);
  CHECK(stats.malformed_columns == 0);
  CHECK(stats.events == expected.size());
  CHECK(Sorted(sink.events) == Sorted(expected));
  CHECK(encoder.pending_events() == 0);
}

// Collects the memory samples a chunk decodes to.
struct MemorySampleSink : EventSink {
  void OnMemorySample(const MemorySampleEvent& sample) override { samples.push_back(sample); }
  std::vector<MemorySampleEvent> samples;
};

TEST_CASE("memory samples round-trip: device allocator figures and host RSS (device -1)") {
  ChunkEncoder encoder;
  encoder.AddMemorySample({1000, 0, 512, 2048, 1024, 0});
  encoder.AddMemorySample({1000, -1, 0, 0, 0, 123456789});
  encoder.AddMemorySample({2000, 3, 0, 0, 0, 0});  // all zero but the time and device
  const trace::Chunk chunk = Parse(encoder.Finish(true));
  REQUIRE(chunk.memory_samples_size() == 3);
  CHECK(chunk.memory_samples(1).device() == -1);
  MemorySampleSink sink;
  DecodeChunk(chunk, &sink);
  REQUIRE(sink.samples.size() == 3);
  CHECK(sink.samples[0].time_ns == 1000);
  CHECK(sink.samples[0].device == 0);
  CHECK(sink.samples[0].allocated == 512);
  CHECK(sink.samples[0].reserved == 2048);
  CHECK(sink.samples[0].peak == 1024);
  CHECK(sink.samples[1].device == -1);
  CHECK(sink.samples[1].rss == 123456789);
  CHECK(sink.samples[2].device == 3);
  CHECK(sink.samples[2].time_ns == 2000);
  // The next chunk starts without them.
  CHECK(Parse(encoder.Finish(true)).memory_samples_size() == 0);
}

TEST_CASE("interned values are defined once per file and resolve in later chunks") {
  ChunkEncoder encoder;
  const StringId gemm = encoder.InternString("gemm");
  CHECK(encoder.InternString("gemm") == gemm);
  KernelConfigValue config;
  config.name = gemm;
  config.grid[0] = 80;
  config.block[0] = 128;
  const KernelConfigId config_id = encoder.InternKernelConfig(config);
  CHECK(encoder.InternKernelConfig(config) == config_id);
  const trace::Chunk first = Parse(encoder.Finish(false));
  CHECK(first.strings_size() == 1);
  CHECK(first.kernel_configs_size() == 1);

  const StringId relu = encoder.InternString("relu");
  CHECK(encoder.InternString("gemm") == gemm);
  const trace::Chunk second = Parse(encoder.Finish(true));
  CHECK(second.strings_size() == 1);
  CHECK(second.first_string_id() == relu);
  CHECK(second.kernel_configs_size() == 0);
  CHECK(first.sequence() == 0);
  CHECK(second.sequence() == 1);
  CHECK(second.last_chunk());

  FileDictionary dictionary;
  dictionary.AddDefinitions(first);
  dictionary.AddDefinitions(second);
  CHECK(dictionary.String(gemm) == "gemm");
  CHECK(dictionary.String(relu) == "relu");
  CHECK(dictionary.String(0).empty());
  REQUIRE(dictionary.KernelConfig(config_id) != nullptr);
  CHECK(dictionary.KernelConfig(config_id)->grid[0] == 80);
  CHECK(dictionary.unknown_references() == 0);
}

TEST_CASE("strings that share their length and both ends are interned apart") {
  // The encoder's memo of recent strings finds a slot by the length and the first and
  // last eight bytes: these two share all of it, and each keeps its own id.
  ChunkEncoder encoder;
  const std::string first = "aten::a_middle_one_xxxxxxxx";
  const std::string second = "aten::a_middle_two_xxxxxxxx";
  const StringId first_id = encoder.InternString(first);
  const StringId second_id = encoder.InternString(second);
  CHECK(first_id != second_id);
  for (int round = 0; round < 3; ++round) {
    CHECK(encoder.InternString(first) == first_id);
    CHECK(encoder.InternString(second) == second_id);
  }
  // Short ones (under eight bytes) and the empty string, by their bytes too.
  const StringId short_id = encoder.InternString("ab");
  const StringId empty_id = encoder.InternString("");
  CHECK(encoder.InternString(std::string("ab")) == short_id);
  CHECK(encoder.InternString(std::string_view("abc", 2)) == short_id);
  CHECK(encoder.InternString("") == empty_id);
  CHECK(short_id != empty_id);
  const trace::Chunk chunk = Parse(encoder.Finish(true));
  REQUIRE(chunk.strings_size() == 4);
  CHECK(chunk.strings(0) == first);
  CHECK(chunk.strings(1) == second);
  CHECK(chunk.strings(2) == "ab");
  CHECK(chunk.strings(3).empty());
}

TEST_CASE("strings of every length up to 32 bytes that differ in one byte keep their ids") {
  // The memo compares a string of up to 16 bytes by its length and first and last eight
  // bytes only, and a longer one by its middle too (up to 24 bytes as one word, past that
  // by memcmp): each byte of each length is changed.
  ChunkEncoder encoder;
  std::vector<std::string> strings;
  for (size_t length = 0; length <= 32; ++length) {
    const std::string base(length, 'a');
    strings.push_back(base);
    for (size_t at = 0; at < length; ++at) {
      std::string changed = base;
      changed[at] = 'b';
      strings.push_back(changed);
    }
  }
  std::vector<StringId> ids;
  for (const std::string& value : strings) ids.push_back(encoder.InternString(value));
  std::set<StringId> distinct(ids.begin(), ids.end());
  CHECK(distinct.size() == strings.size());
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < strings.size(); ++i) {
      CHECK(encoder.InternString(strings[i]) == ids[i]);
    }
  }
  // 1 + 2 + ... + 33 = 561 strings, each defined once, in order.
  const trace::Chunk chunk = Parse(encoder.Finish(true));
  REQUIRE(chunk.strings_size() == 561);
  for (size_t i = 0; i < strings.size(); ++i)
    CHECK(chunk.strings(static_cast<int>(i)) == strings[i]);
}

TEST_CASE("two strings of one memo slot that alternate are each looked up once") {
  // Two names that share a slot of the recent-string memo (found by search: the hash is
  // fixed); with one way each evicted the other and every call went to the map.
  using chunk_encoder_internal::RecentKeyOf;
  using chunk_encoder_internal::RecentSlot;
  constexpr size_t kSlots = 4096;  // ChunkEncoder::kRecentStrings
  std::vector<std::string> by_slot(kSlots);
  std::string first, second;
  for (int n = 0; second.empty(); ++n) {
    const std::string name = "aten::op_" + std::to_string(n);
    std::string& holder = by_slot[RecentSlot(RecentKeyOf(name), kSlots)];
    if (holder.empty()) {
      holder = name;
    } else {
      first = holder;
      second = name;
    }
  }
  ChunkEncoder encoder;
  const StringId first_id = encoder.InternString(first);
  const StringId second_id = encoder.InternString(second);
  CHECK(first_id != second_id);
  for (int round = 0; round < 50; ++round) {
    CHECK(encoder.InternString(first) == first_id);
    CHECK(encoder.InternString(second) == second_id);
  }
  CHECK(encoder.string_memo_misses() == 2);  // their first calls only

  // A third string of the same pair of slots evicts one of them, and every id stays right.
  const size_t pair = RecentSlot(RecentKeyOf(first), kSlots) & ~size_t{1};
  std::string third;
  for (int n = 0; third.empty(); ++n) {
    const std::string candidate = "aten::other_" + std::to_string(n);
    if ((RecentSlot(RecentKeyOf(candidate), kSlots) & ~size_t{1}) == pair) third = candidate;
  }
  const StringId third_id = encoder.InternString(third);
  for (int round = 0; round < 3; ++round) {
    CHECK(encoder.InternString(third) == third_id);
    CHECK(encoder.InternString(first) == first_id);
    CHECK(encoder.InternString(second) == second_id);
  }
  const trace::Chunk chunk = Parse(encoder.Finish(true));
  REQUIRE(chunk.strings_size() == 3);
  CHECK(chunk.strings(0) == first);
  CHECK(chunk.strings(1) == second);
  CHECK(chunk.strings(2) == third);
}

TEST_CASE("strings that differ only in their last byte spread over the memo's slots") {
  // "aten::zeros" and "aten::zero_": with the slot taken below the product's top bits, a
  // difference in the last byte never reached it and all 26 of these shared one slot.
  using chunk_encoder_internal::RecentKeyOf;
  using chunk_encoder_internal::RecentSlot;
  std::set<size_t> slots;
  for (char last = 'a'; last <= 'z'; ++last) {
    slots.insert(RecentSlot(RecentKeyOf(std::string("aten::zero") + last), 4096));
  }
  CHECK(slots.size() >= 20);  // 26 at random into 4096 slots: ~25.9 distinct expected
}

TEST_CASE("ids defined in a lost chunk resolve to placeholders and are counted") {
  ChunkEncoder encoder;
  encoder.InternString("lost");
  encoder.Finish(false);  // never reaches the dictionary
  const StringId kept = encoder.InternString("kept");
  FileDictionary dictionary;
  dictionary.AddDefinitions(Parse(encoder.Finish(true)));
  CHECK(dictionary.String(kept) == "kept");
  CHECK(dictionary.String(1) == "<unknown string 1>");
  CHECK(dictionary.KernelConfig(9) == nullptr);
  CHECK(dictionary.Communicator(3) == nullptr);
  CHECK(dictionary.CallStack(4) == nullptr);
  CHECK(dictionary.unknown_references() == 4);
}

TEST_CASE("a block whose columns disagree is skipped whole and counted") {
  ChunkEncoder encoder;
  std::vector<std::string> expected;
  testing::AddEveryEventKind(&encoder, 3, 4, &expected);
  trace::Chunk chunk = Parse(encoder.Finish(true));
  REQUIRE(chunk.streams_size() > 0);
  trace::Kernels* kernels = chunk.mutable_streams(0)->mutable_kernels();
  const int damaged_rows = kernels->duration_ns_size();
  REQUIRE(damaged_rows > 0);
  kernels->mutable_duration_ns()->RemoveLast();

  FileDictionary dictionary;
  RecordingSink sink;
  const ChunkDecodeStats stats = DecodeThroughBytes(chunk, &dictionary, &sink);
  CHECK(stats.malformed_blocks == 1);
  CHECK(stats.events == expected.size() - damaged_rows);
  CHECK(stats.first_problem.find("Kernels block") != std::string::npos);
}

TEST_CASE("a malformed sparse column is ignored and counted, its block still decodes") {
  ChunkEncoder encoder;
  ApiCallEvent call;
  call.thread_id = 1;
  call.stream = 5;
  encoder.AddApiCall(call);
  trace::Chunk chunk = Parse(encoder.Finish(true));
  trace::SparseColumn* stream = chunk.mutable_threads(0)->mutable_api_calls()->mutable_stream();
  stream->set_index_delta(0, 3);  // row 3 of a one-row block

  FileDictionary dictionary;
  RecordingSink sink;
  const ChunkDecodeStats stats = DecodeThroughBytes(chunk, &dictionary, &sink);
  CHECK(stats.malformed_columns == 1);
  REQUIRE(sink.events.size() == 1);
  CHECK(sink.events[0].find("stream=-") != std::string::npos);
}

// The column blocks of `chunk` (the message fields of its ThreadEvents and StreamEvents), as
// mutable messages, whatever the schema holds: what the decoder must check.
std::vector<google::protobuf::Message*> Blocks(trace::Chunk* chunk) {
  std::vector<google::protobuf::Message*> blocks;
  auto add = [&blocks](google::protobuf::Message* group) {
    const google::protobuf::Reflection& reflection = *group->GetReflection();
    std::vector<const google::protobuf::FieldDescriptor*> fields;
    reflection.ListFields(*group, &fields);
    for (const auto* field : fields) {
      if (field->type() != google::protobuf::FieldDescriptor::TYPE_MESSAGE) continue;
      blocks.push_back(reflection.MutableMessage(group, field));
    }
  };
  for (trace::ThreadEvents& thread : *chunk->mutable_threads()) add(&thread);
  for (trace::StreamEvents& stream : *chunk->mutable_streams()) add(&stream);
  return blocks;
}

TEST_CASE("every packed column of every block is checked, a short one skips its block") {
  ChunkEncoder encoder;
  std::vector<std::string> expected;
  testing::AddEveryEventKind(&encoder, 5, 3, &expected);
  const trace::Chunk original = Parse(encoder.Finish(true));
  trace::Chunk scratch = original;
  std::set<std::string> block_types;
  int columns_tested = 0;
  const size_t block_count = Blocks(&scratch).size();
  for (size_t b = 0; b < block_count; ++b) {
    const google::protobuf::Descriptor& type = *Blocks(&scratch)[b]->GetDescriptor();
    block_types.insert(type.name());
    for (int f = 0; f < type.field_count(); ++f) {
      const google::protobuf::FieldDescriptor* field = type.field(f);
      // Run-length companions (numbered above 16), empty unless their column repeats:
      // run_column_test.cc damages those.
      if (!field->is_repeated() || field->number() > 16) continue;
      trace::Chunk damaged = original;
      google::protobuf::Message* block = Blocks(&damaged)[b];
      REQUIRE(block->GetReflection()->FieldSize(*block, field) > 0);
      block->GetReflection()->RemoveLast(block, field);
      FileDictionary dictionary;
      RecordingSink sink;
      const ChunkDecodeStats stats = DecodeThroughBytes(damaged, &dictionary, &sink);
      INFO(type.name() << "." << field->name());
      CHECK(stats.malformed_blocks == 1);
      CHECK(stats.first_problem.find(type.name() + " block") != std::string::npos);
      ++columns_tested;
    }
  }
  CHECK(block_types.size() == 9);  // ApiCalls ... Synchronizations: every kind was written
  CHECK(columns_tested >= 47);     // their 47 packed columns, at least once each
}

TEST_CASE("every sparse column of every block is checked, a bad one is ignored and counted") {
  ChunkEncoder encoder;
  std::vector<std::string> expected;
  testing::AddEveryEventKind(&encoder, 6, 2, &expected);
  trace::Chunk chunk = Parse(encoder.Finish(true));
  int sparse_columns = 0;
  for (google::protobuf::Message* block : Blocks(&chunk)) {
    const google::protobuf::Descriptor& type = *block->GetDescriptor();
    for (int f = 0; f < type.field_count(); ++f) {
      const google::protobuf::FieldDescriptor* field = type.field(f);
      if (field->message_type() != trace::SparseColumn::descriptor()) continue;
      auto* column =
          static_cast<trace::SparseColumn*>(block->GetReflection()->MutableMessage(block, field));
      column->add_index_delta(1000000);  // a row past any block of this chunk
      column->add_value(1);
      ++sparse_columns;
    }
  }
  FileDictionary dictionary;
  RecordingSink sink;
  const ChunkDecodeStats stats = DecodeThroughBytes(chunk, &dictionary, &sink);
  // ApiCalls 7, HostRanges 4, NcclCalls 2, MemoryEvents 2, Kernels 3, Synchronizations 1.
  CHECK(sparse_columns >= 19);
  CHECK(stats.malformed_columns == static_cast<uint64_t>(sparse_columns));
  CHECK(stats.malformed_blocks == 0);
  CHECK(stats.events == expected.size());
  CHECK(stats.first_problem.find("is malformed and was ignored") != std::string::npos);
}

TEST_CASE("names, losses, anchors and process info are carried") {
  ChunkEncoder encoder;
  encoder.SetThreadName(77, "dataloader");
  encoder.SetProcess("python3", 1);
  encoder.AddLoss(schema::LOSS_KIND_CUPTI_DROPPED, 12);
  encoder.AddLoss(schema::LOSS_KIND_HOST_BUFFER_FULL, 0);  // nothing lost: not written
  ClockAnchorValue anchor;
  anchor.host_monotonic_ns = 10;
  anchor.cupti_ns = 20;
  encoder.AddClockAnchor(anchor);
  FileDictionary dictionary;
  RecordingSink sink;
  DecodeThroughBytes(encoder.Finish(true), &dictionary, &sink);
  CHECK(Sorted(sink.other) == Sorted({"thread 77 name=1", "process name=2 parent=1",
                                      "loss kind=2 count=12", "anchor mono=10 real=0 cupti=20"}));
  CHECK(dictionary.String(1) == "dataloader");
}

TEST_CASE("a loss counter names the step its records were lost in, step 0 included") {
  ChunkEncoder encoder;
  encoder.AddLoss(schema::LOSS_KIND_HOST_BUFFER_FULL, 5, 0);
  encoder.AddLoss(schema::LOSS_KIND_HOST_RANGE_DROPPED, 3, 7);
  encoder.AddLoss(schema::LOSS_KIND_THREAD_LIMIT, 2);  // no step: total only
  FileDictionary dictionary;
  RecordingSink sink;
  DecodeThroughBytes(encoder.Finish(true), &dictionary, &sink);
  CHECK(Sorted(sink.other) ==
        Sorted({"loss kind=1 count=5", "loss kind=1 count=5 step=0", "loss kind=9 count=3",
                "loss kind=9 count=3 step=7", "loss kind=7 count=2"}));
}

TEST_CASE("a realistic mix stays well under 16 bytes per event") {
  ChunkEncoder encoder;
  uint64_t now = 1000000;
  for (int i = 0; i < 10000; ++i) {
    ApiCallEvent launch;
    launch.thread_id = 9;
    launch.start_ns = now;
    launch.duration_ns = 3000 + i % 7;
    launch.name = encoder.InternString("cudaLaunchKernel");
    launch.correlation_id = i + 1;
    encoder.AddApiCall(launch);
    KernelEvent kernel;
    kernel.where = StreamKey{0, 1, 7, schema::CLOCK_DOMAIN_CUPTI};
    kernel.start_ns = now + 5000;
    kernel.duration_ns = 20000 + (i % 13) * 100;
    KernelConfigValue config;
    config.name = encoder.InternString("kernel" + std::to_string(i % 20));
    kernel.config = encoder.InternKernelConfig(config);
    kernel.correlation_id = i + 1;
    encoder.AddKernel(kernel);
    now += 25000;
  }
  const std::string_view bytes = encoder.Finish(true);
  const double per_event = static_cast<double>(bytes.size()) / 20000;
  INFO("bytes per event: " << per_event);
  CHECK(per_event < 16);
}

}  // namespace
}  // namespace prof
