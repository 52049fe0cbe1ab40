// The converter reads each kind's typed record (record.h) into its trace event: every
// field of a step, a memory sample, an allocation and a free, an NCCL call and a copy,
// written to a file and read back (expected values are the inputs, mapped by hand).
#include "agent/writer/record_converter.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "agent/cupti/cupti_test_support.h"
#include "agent/record/api_ids.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace {

// A record of T's own kind (T::kKind), as BeginRecord would start it.
template <typename T>
T Typed(uint64_t start_ns, uint64_t end_ns) {
  T record{};
  record.size = static_cast<uint16_t>(sizeof(T));
  record.kind = T::kKind;
  record.start_ns = start_ns;
  record.end_ns = end_ns;
  return record;
}

struct Events : EventSink {
  void OnStep(const StepEvent& event) override { steps.push_back(event); }
  void OnMemorySample(const MemorySampleEvent& event) override { samples.push_back(event); }
  void OnMemory(const MemoryEvent& event) override { memory.push_back(event); }
  void OnNcclCall(const NcclCallEvent& event) override { nccl.push_back(event); }
  void OnApiCall(const ApiCallEvent& event) override { calls.push_back(event); }
  void OnHostRange(const HostRangeEvent& event) override { ranges.push_back(event); }
  std::vector<StepEvent> steps;
  std::vector<MemorySampleEvent> samples;
  std::vector<MemoryEvent> memory;
  std::vector<NcclCallEvent> nccl;
  std::vector<ApiCallEvent> calls;
  std::vector<HostRangeEvent> ranges;
};

Events ReadEvents(const std::string& path, FileDictionary* names = nullptr) {
  FileDictionary own;
  FileDictionary& dictionary = names ? *names : own;
  Events events;
  auto reader = TraceFileReader::Open(path);
  REQUIRE(reader.ok());
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    DecodeChunk(chunk, &events);
  }
  return events;
}

TEST_CASE("each typed record becomes its event, field for field") {
  testing::OneWindowRouter router("typed_records");
  RecordConverter converter([](uint32_t) -> WindowFile* { return nullptr; });
  WindowFile& window = router.window();

  auto step = Typed<StepRecord>(1000, 1500);
  step.step = 12;
  step.samples = 3;
  converter.Add(1, step, window);

  auto sample = Typed<MemorySampleRecord>(1600, 1600);
  sample.device = 1;
  sample.allocated = 100;
  sample.reserved = 200;
  sample.peak = 150;
  converter.Add(1, sample, window);

  auto allocation = Typed<MemoryRecord>(1700, 1700);
  allocation.subkind = schema::MEMORY_KIND_DEVICE;
  allocation.address = 0xabc000;
  allocation.bytes = 4096;
  allocation.device = 2;
  allocation.stream_plus_one = 0x11;
  converter.Add(1, allocation, window);
  auto free_host = Typed<MemoryRecord>(1800, 1800);
  free_host.flags = kRecordMemoryFree;
  free_host.address = 0xdef000;
  free_host.device = -1;
  converter.Add(1, free_host, window);

  auto all_reduce = Typed<NcclCallRecord>(1900, 1950);
  all_reduce.api = schema::NCCL_OPERATION_ALL_REDUCE;
  all_reduce.comm = 0x5000;
  all_reduce.count = 256;
  all_reduce.data_type = 7;
  all_reduce.bytes = 1024;
  all_reduce.stream = 0x20;
  all_reduce.root_or_peer = -1;
  all_reduce.reduction = 0;
  all_reduce.sequence = 5;
  converter.Add(1, all_reduce, window);

  auto copy = Typed<ApiCallRecord>(2000, 2100);
  copy.api = kApi_cudaMemcpy;
  copy.stream_plus_one = 1;
  copy.bytes = 8192;
  copy.copy_kind_plus_one = 2;  // cudaMemcpyHostToDevice (1) + 1
  converter.Add(1, copy, window);

  const Events events = ReadEvents(router.Finish());
  REQUIRE(events.steps.size() == 1);
  CHECK(events.steps[0].step_number == 12);
  CHECK(events.steps[0].sample_count == 3);
  CHECK(events.steps[0].start_ns == 1000);
  CHECK(events.steps[0].duration_ns == 500);

  REQUIRE(events.samples.size() == 1);
  CHECK(events.samples[0].time_ns == 1600);
  CHECK(events.samples[0].device == 1);
  CHECK(events.samples[0].allocated == 100);
  CHECK(events.samples[0].reserved == 200);
  CHECK(events.samples[0].peak == 150);

  REQUIRE(events.memory.size() == 2);
  CHECK(events.memory[0].operation == schema::MEMORY_OPERATION_ALLOCATE);
  CHECK(events.memory[0].address == 0xabc000);
  CHECK(events.memory[0].bytes == 4096);
  CHECK(events.memory[0].device == 2);
  CHECK(events.memory[0].kind == schema::MEMORY_KIND_DEVICE);
  CHECK(events.memory[0].stream == std::optional<uint64_t>(0x10));
  CHECK(events.memory[1].operation == schema::MEMORY_OPERATION_FREE);
  CHECK(events.memory[1].address == 0xdef000);
  CHECK(events.memory[1].device == -1);
  CHECK_FALSE(events.memory[1].stream.has_value());

  REQUIRE(events.nccl.size() == 1);
  const NcclCallEvent& call = events.nccl[0];
  CHECK(call.operation == schema::NCCL_OPERATION_ALL_REDUCE);
  CHECK(call.duration_ns == 50);
  CHECK(call.count == 256);
  CHECK(call.data_type == 7);
  CHECK(call.bytes == 1024);
  CHECK(call.stream == 0x20);
  CHECK(call.sequence_number == 5);
  CHECK(call.communicator != 0);
  CHECK_FALSE(call.root_or_peer.has_value());
  CHECK(call.reduction_op == std::optional<uint32_t>(0));

  REQUIRE(events.calls.size() == 1);
  CHECK(events.calls[0].stream == std::optional<uint64_t>(0));
  CHECK(events.calls[0].bytes == 8192);
  CHECK(events.calls[0].copy_kind == schema::COPY_KIND_HOST_TO_DEVICE);
  CHECK(events.calls[0].kernel_config == 0);
}

// A record of `kind` with `texts` (NUL-separated) after the header, as the recorder lays it.
template <typename T>
std::vector<uint64_t> Named(RecordKind kind, const std::string& texts, uint64_t start_ns,
                            uint64_t end_ns) {
  std::vector<uint64_t> words((RecordSize(kind, texts.size()) + 7) / 8, 0);
  T& record = *reinterpret_cast<T*>(words.data());
  record.size = static_cast<uint16_t>(RecordSize(kind, texts.size()));
  record.kind = kind;
  record.name_length = static_cast<uint32_t>(texts.size());
  record.start_ns = start_ns;
  record.end_ns = end_ns;
  std::memcpy(reinterpret_cast<char*>(words.data()) + sizeof(T), texts.data(), texts.size());
  return words;
}

TEST_CASE("a whole operator range becomes an operator range; the detailed kind still reads") {
  testing::OneWindowRouter router("operator_ranges");
  RecordConverter converter([](uint32_t) -> WindowFile* { return nullptr; });
  WindowFile& window = router.window();
  const auto plain = Named<OperatorRangeRecord>(RecordKind::kOperatorRange, "aten::mm", 100, 160);
  converter.Add(3, *reinterpret_cast<const Record*>(plain.data()), window);
  const auto detailed =
      Named<OperatorDetailRecord>(RecordKind::kOperatorRangeDetail,
                                  std::string("aten::relu\0[[2]]\0float\0m.py:7", 29), 200, 230);
  converter.Add(3, *reinterpret_cast<const Record*>(detailed.data()), window);
  const auto again = Named<OperatorRangeRecord>(RecordKind::kOperatorRange, "aten::mm", 300, 301);
  converter.Add(4, *reinterpret_cast<const Record*>(again.data()), window);

  FileDictionary names;
  const Events events = ReadEvents(router.Finish(), &names);
  REQUIRE(events.ranges.size() == 3);
  const HostRangeEvent& mm = events.ranges[0];
  CHECK(mm.thread_id == 3);
  CHECK(mm.kind == schema::RANGE_KIND_OPERATOR);
  CHECK(mm.start_ns == 100);
  CHECK(mm.duration_ns == 60);
  CHECK(names.String(mm.name) == "aten::mm");
  CHECK(mm.domain == 0);
  CHECK(mm.shapes == 0);
  CHECK(mm.dtypes == 0);
  CHECK(mm.source == 0);
  const HostRangeEvent& relu = events.ranges[1];
  CHECK(relu.kind == schema::RANGE_KIND_OPERATOR);
  CHECK(relu.duration_ns == 30);
  CHECK(names.String(relu.name) == "aten::relu");
  CHECK(names.String(relu.shapes) == "[[2]]");
  CHECK(names.String(relu.dtypes) == "float");
  CHECK(names.String(relu.source) == "m.py:7");
  CHECK(events.ranges[2].thread_id == 4);
  CHECK(events.ranges[2].name == mm.name);  // one string, interned once
  CHECK(events.ranges[2].duration_ns == 1);
}

TEST_CASE("a call keeps none of the previous call's arguments") {
  // The converter reuses one event for every call: each field must be rewritten.
  testing::OneWindowRouter router("reused_call");
  RecordConverter converter([](uint32_t) -> WindowFile* { return nullptr; });
  WindowFile& window = router.window();
  auto copy = Typed<ApiCallRecord>(2000, 2100);
  copy.api = kApi_cudaMemcpy;
  copy.subkind = kApiSubkindDriver;
  copy.status = 700;
  copy.correlation_id = 41;
  copy.stream_plus_one = 6;
  copy.bytes = 8192;
  copy.copy_kind_plus_one = 2;
  converter.Add(7, copy, window);
  auto plain = Typed<ApiCallRecord>(3000, 3010);
  plain.api = kApi_cudaEventRecord;
  plain.correlation_id = 42;
  converter.Add(7, plain, window);

  const Events events = ReadEvents(router.Finish());
  REQUIRE(events.calls.size() == 2);
  CHECK(events.calls[0].domain == schema::API_DOMAIN_DRIVER);
  CHECK(events.calls[0].status == 700);
  CHECK(events.calls[0].stream == std::optional<uint64_t>(5));
  const ApiCallEvent& second = events.calls[1];
  CHECK(second.thread_id == 7);
  CHECK(second.start_ns == 3000);
  CHECK(second.duration_ns == 10);
  CHECK(second.correlation_id == 42);
  CHECK(second.domain == schema::API_DOMAIN_RUNTIME);
  CHECK(second.status == 0);
  CHECK_FALSE(second.stream.has_value());
  CHECK(second.bytes == 0);
  CHECK(second.copy_kind == schema::COPY_KIND_UNKNOWN);
  CHECK(second.kernel_config == 0);
  CHECK(second.call_stack == 0);
}

}  // namespace
}  // namespace prof
