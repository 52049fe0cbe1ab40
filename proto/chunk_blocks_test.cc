// The encoder's room for rows (chunk_blocks::NewRow): a row's values are appended without
// a capacity check of their own, into room made for kRoomRows rows at a time. Rows past
// that room, with every column's widest varint (10 bytes), chunk after chunk (the buffers
// are reused), must still give libprotobuf's bytes, value for value. Under --config=asan,
// a row written past its room would also be an overflow of the column's buffer.
#include "proto/chunk_blocks.h"

#include <cstdint>
#include <limits>
#include <string>

#include <catch2/catch.hpp>
#include <google/protobuf/util/message_differencer.h>

#include "proto/chunk_encoder.h"
#include "proto/testing/reference_chunk_encoder.h"
#include "proto/trace.pb.h"

namespace prof {
namespace {

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kMax32 = std::numeric_limits<uint32_t>::max();

// Starts alternating between 0 and 2^63: deltas of INT64_MIN, whose zigzag is 2^64 - 1.
uint64_t WidestStart(int row) { return static_cast<uint64_t>(row % 2) << 63; }

ApiCallEvent WidestCall(int row) {
  ApiCallEvent call;
  call.thread_id = kMax64;
  call.start_ns = WidestStart(row);
  call.duration_ns = kMax64;
  call.name = kMax32 - row % 2;  // a mixed column: stays plain
  call.correlation_id = WidestStart(row + 1);
  call.domain = schema::API_DOMAIN_DRIVER;
  call.status = -1;  // a ten-byte varint
  call.stream = kMax64;
  call.bytes = kMax64;
  call.copy_kind = schema::COPY_KIND_DEVICE_TO_HOST;
  call.kernel_config = kMax32;
  call.call_stack = kMax32 - row % 2;
  return call;
}

MemoryEvent WidestMemory(int row) {
  MemoryEvent memory;
  memory.thread_id = kMax64;
  memory.time_ns = WidestStart(row);
  memory.operation = schema::MEMORY_OPERATION_FREE;
  memory.address = WidestStart(row + 1);
  memory.bytes = kMax64;
  memory.device = -1;  // int32: sign-extended to ten bytes
  memory.stream = kMax64;
  memory.call_stack = kMax32;
  return memory;
}

KernelEvent WidestKernel(int row) {
  KernelEvent kernel;
  kernel.where = StreamKey{kMax32, kMax32, kMax32, schema::CLOCK_DOMAIN_HOST_MONOTONIC};
  kernel.start_ns = WidestStart(row);
  kernel.duration_ns = kMax64;
  kernel.config = kMax32 - row % 2;
  kernel.correlation_id = WidestStart(row + 1);
  kernel.graph_id = kMax64;
  kernel.graph_node_id = kMax64;
  kernel.launch_type = kMax32;
  return kernel;
}

TEST_CASE("rows past the columns' room, at the widest values, give libprotobuf's bytes") {
  ChunkEncoder ours;
  testing::ReferenceChunkEncoder reference;
  for (int chunk = 0; chunk < 3; ++chunk) {
    INFO("chunk " << chunk);
    // Not a multiple of the room; a different count each chunk.
    const int rows = 3 * static_cast<int>(chunk_blocks::kRoomRows) + 1 + 7 * chunk;
    for (int row = 0; row < rows; ++row) {
      ours.AddApiCall(WidestCall(row));
      reference.AddApiCall(WidestCall(row));
      ours.AddMemory(WidestMemory(row));
      reference.AddMemory(WidestMemory(row));
      ours.AddKernel(WidestKernel(row));
      reference.AddKernel(WidestKernel(row));
    }
    CHECK(ours.pending_events() == 3u * rows);
    const std::string_view bytes = ours.Finish(chunk == 2);
    const trace::Chunk& expected = reference.Finish(chunk == 2);
    trace::Chunk parsed;
    REQUIRE(parsed.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
    REQUIRE(parsed.threads_size() == 1);
    CHECK(parsed.threads(0).api_calls().duration_ns_size() == rows);
    CHECK(parsed.threads(0).api_calls().stream().value_runs_size() == 1);
    CHECK(google::protobuf::util::MessageDifferencer::Equals(parsed, expected));
    CHECK(expected.SerializeAsString() == bytes);
  }
}

// Operators' kinds are written late (chunk_blocks::WriteOperatorKinds): runs of operators
// longer than the columns' room, other kinds between them, and a chunk that ends in either.
TEST_CASE("operator ranges among other kinds give libprotobuf's bytes") {
  ChunkEncoder ours;
  testing::ReferenceChunkEncoder reference;
  const schema::RangeKind others[] = {schema::RANGE_KIND_NVTX_PUSH_POP,
                                      schema::RANGE_KIND_OPERATOR, schema::RANGE_KIND_MODEL_PHASE};
  uint64_t start = 100;
  for (int chunk = 0; chunk < 4; ++chunk) {
    INFO("chunk " << chunk);
    // A run of operators, then a few of each other kind, twice; the last chunk ends in
    // operators, the others in another kind.
    const int operators = 2 * static_cast<int>(chunk_blocks::kRoomRows) + 5 + 31 * chunk;
    for (int part = 0; part < 2; ++part) {
      for (int row = 0; row < operators + (chunk == 3 && part == 1 ? 0 : 3); ++row) {
        HostRangeEvent range;
        range.thread_id = 7;
        range.start_ns = start += 10;
        range.duration_ns = 5;
        range.name = 1 + row % 3;
        range.kind = row < operators ? schema::RANGE_KIND_OPERATOR : others[(row + chunk) % 3];
        ours.AddHostRange(range);
        reference.AddHostRange(range);
      }
    }
    const std::string_view bytes = ours.Finish(chunk == 3);
    const trace::Chunk& expected = reference.Finish(chunk == 3);
    trace::Chunk parsed;
    REQUIRE(parsed.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
    CHECK(google::protobuf::util::MessageDifferencer::Equals(parsed, expected));
    CHECK(expected.SerializeAsString() == bytes);
  }
}

}  // namespace
}  // namespace prof
