// The memory-flow layout and carrying blocks across windows, on hand-made records.
#include "analyzer/report/memory_flow.h"

#include <catch2/catch.hpp>

namespace prof::analyzer::report {
namespace {

MemoryRecord Record(uint64_t time, uint64_t address, uint64_t bytes, bool allocate,
                    int32_t device = 0) {
  MemoryRecord record;
  record.time_ns = time;
  record.address = address;
  record.bytes = bytes;
  record.allocate = allocate;
  record.device = device;
  record.kind = schema::MEMORY_KIND_DEVICE;
  return record;
}

TEST_CASE("first fit takes the lowest gap that holds the block") {
  const std::map<uint64_t, uint64_t> occupied = {{0, 100}, {150, 50}, {300, 10}};
  CHECK(FirstFitOffset(occupied, 50) == 100);   // [100,150) fits exactly
  CHECK(FirstFitOffset(occupied, 60) == 200);   // [200,300) is the first gap of 60
  CHECK(FirstFitOffset(occupied, 200) == 310);  // past the last block
  CHECK(FirstFitOffset({}, 5) == 0);
}

TEST_CASE("blocks are laid out, carried across windows and counted per step") {
  TraceModel first;
  first.memory = {Record(10, 0xa, 100, true), Record(20, 0xb, 50, true), Record(30, 0xa, 0, false),
                  Record(40, 0xc, 80, true)};
  StepFigures step;
  step.start_ns = 0;
  step.duration_ns = 35;  // sees 0xa and 0xb live (150), ends with 0xb (50)
  MemoryFlowBuilder builder;
  builder.AddWindow(first, {step}, 0);
  TraceModel second;  // 0xb freed in the next window; a free of an unknown address
  second.memory = {Record(100, 0xb, 0, false), Record(110, 0xdead, 0, false)};
  builder.AddWindow(second, {}, 1);
  CHECK(builder.frees_without_allocation() == 1);
  const auto flows = std::move(builder).Finish(200, 1);
  const MemoryPlaceFlow& gpu = flows.at("GPU0");
  CHECK(gpu.peak_bytes == 150);
  CHECK(gpu.step_peak_bytes == std::vector<uint64_t>{150});
  CHECK(gpu.step_end_bytes == std::vector<uint64_t>{50});
  REQUIRE(gpu.blocks.size() == 3);
  // By start: 0xa at 0; 0xb above it at 100; 0xc in 0xa's freed gap [0,100) at 0.
  CHECK(gpu.blocks[0].offset == 0);
  CHECK(gpu.blocks[1].offset == 100);
  CHECK(gpu.blocks[1].end_ns == 100);
  CHECK(gpu.blocks[2].offset == 0);
  CHECK(gpu.blocks[2].live_at_end);
  CHECK(gpu.blocks[2].end_ns == 200);
}

TEST_CASE("pinned host memory goes to the Host place") {
  MemoryRecord record = Record(1, 1, 1, true, 0);
  record.kind = schema::MEMORY_KIND_PINNED;
  CHECK(MemoryPlaceName(MemoryPlaceOf(record)) == "Host");
  CHECK(MemoryPlaceName(MemoryPlaceOf(Record(1, 1, 1, true, 3))) == "GPU3");
}

}  // namespace
}  // namespace prof::analyzer::report
