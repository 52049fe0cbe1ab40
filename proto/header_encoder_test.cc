// The file header, clock anchors and CPU usage readings the agent writes without
// libprotobuf parse with libprotobuf into the values written, for random values including
// the extremes, and are the bytes libprotobuf's deterministic serialization gives.
#include "proto/header_encoder.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <catch2/catch.hpp>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "proto/trace.pb.h"

namespace prof {
namespace {

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();

class Draw {
 public:
  explicit Draw(uint64_t seed) : random_(seed) {}
  // Mostly extremes (0, 1, the maximum), else any value.
  uint64_t U64() {
    switch (random_() % 5) {
      case 0: return 0;
      case 1: return 1;
      case 2: return kMax64;
      default: return random_() >> (random_() % 64);
    }
  }
  int64_t I64() {
    switch (random_() % 5) {
      case 0: return std::numeric_limits<int64_t>::min();
      case 1: return -1;
      default: return static_cast<int64_t>(U64());
    }
  }
  int32_t I32() { return static_cast<int32_t>(I64()); }
  uint32_t U32() { return static_cast<uint32_t>(U64()); }
  bool Bool() { return random_() % 2; }
  // Empty, short, with a NUL byte, non-ASCII, or long (100 000 bytes).
  std::string Text() {
    switch (random_() % 5) {
      case 0: return "";
      case 1: return std::string("a\0b", 3);
      case 2: return "\xc3\xa9t\xc3\xa9";
      case 3: return std::string(100000, static_cast<char>('a' + random_() % 26));
      default: return "value" + std::to_string(random_() % 1000);
    }
  }

 private:
  std::mt19937_64 random_;
};

ClockAnchorValue RandomAnchor(Draw& draw) {
  return ClockAnchorValue{draw.U64(), draw.U64(), draw.U64(), draw.U64(), draw.Text()};
}

CpuUsageValue RandomUsage(Draw& draw) {
  return CpuUsageValue{draw.U64(), draw.U64(), draw.U64(), draw.U64(), draw.Bool()};
}

FileHeaderValue RandomHeader(Draw& draw) {
  FileHeaderValue header;
  header.format_version = draw.U32();
  header.agent_version = draw.Text();
  header.host_name = draw.Text();
  header.pid = draw.I64();
  header.rank = draw.I32();
  header.world_size = draw.I32();
  header.local_rank = draw.I32();
  header.worker_name = draw.Text();
  header.window_index = draw.U32();
  header.window_first_step = draw.I64();
  header.window_end_step = draw.I64();
  for (uint64_t i = draw.U64() % 4; i > 0; --i) header.clock_anchors.push_back(RandomAnchor(draw));
  for (uint64_t i = draw.U64() % 5; i > 0; --i) header.config[draw.Text()] = draw.Text();
  header.command_line = draw.Text();
  for (uint64_t i = draw.U64() % 3; i > 0; --i) header.cpu_usage.push_back(RandomUsage(draw));
  return header;
}

void CheckAnchor(const trace::ClockAnchor& parsed, const ClockAnchorValue& written) {
  CHECK(parsed.host_monotonic_ns() == written.host_monotonic_ns);
  CHECK(parsed.host_realtime_ns() == written.host_realtime_ns);
  CHECK(parsed.cupti_ns() == written.cupti_ns);
  CHECK(parsed.uncertainty_ns() == written.uncertainty_ns);
  CHECK(parsed.reason() == written.reason);
}

void CheckUsage(const trace::CpuUsage& parsed, const CpuUsageValue& written) {
  CHECK(parsed.host_monotonic_ns() == written.host_monotonic_ns);
  CHECK(parsed.process_cpu_ns() == written.process_cpu_ns);
  CHECK(parsed.system_busy_ticks() == written.system_busy_ticks);
  CHECK(parsed.system_idle_ticks() == written.system_idle_ticks);
  CHECK(parsed.system_known() == written.system_known);
}

// libprotobuf's deterministic serialization (map entries sorted by key).
std::string Deterministic(const google::protobuf::MessageLite& message) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&out);
  }
  return bytes;
}

TEST_CASE("random file headers parse into the values written, byte for byte") {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Draw draw(seed);
    const FileHeaderValue header = RandomHeader(draw);
    const std::string bytes = EncodeFileHeader(header);
    trace::FileHeader parsed;
    INFO("seed " << seed);
    REQUIRE(parsed.ParseFromString(bytes));
    CHECK(parsed.format_version() == header.format_version);
    CHECK(parsed.agent_version() == header.agent_version);
    CHECK(parsed.host_name() == header.host_name);
    CHECK(parsed.pid() == header.pid);
    CHECK(parsed.rank() == header.rank);
    CHECK(parsed.world_size() == header.world_size);
    CHECK(parsed.local_rank() == header.local_rank);
    CHECK(parsed.worker_name() == header.worker_name);
    CHECK(parsed.window_index() == header.window_index);
    CHECK(parsed.window_first_step() == header.window_first_step);
    CHECK(parsed.window_end_step() == header.window_end_step);
    REQUIRE(parsed.clock_anchors_size() == static_cast<int>(header.clock_anchors.size()));
    for (size_t i = 0; i < header.clock_anchors.size(); ++i) {
      CheckAnchor(parsed.clock_anchors(i), header.clock_anchors[i]);
    }
    CHECK(parsed.config().size() == header.config.size());
    for (const auto& [key, value] : header.config) {
      REQUIRE(parsed.config().count(key) == 1);
      CHECK(parsed.config().at(key) == value);
    }
    CHECK(parsed.command_line() == header.command_line);
    REQUIRE(parsed.cpu_usage_size() == static_cast<int>(header.cpu_usage.size()));
    for (size_t i = 0; i < header.cpu_usage.size(); ++i) {
      CheckUsage(parsed.cpu_usage(i), header.cpu_usage[i]);
    }
    CHECK(Deterministic(parsed) == bytes);
  }
}

TEST_CASE("an empty header is an empty message; anchors and usage alone round-trip") {
  CHECK(EncodeFileHeader(FileHeaderValue()).empty());
  for (uint64_t seed = 0; seed < 100; ++seed) {
    Draw draw(seed);
    const ClockAnchorValue anchor = RandomAnchor(draw);
    const CpuUsageValue usage = RandomUsage(draw);
    wire::Buffer anchor_bytes, usage_bytes;
    EncodeClockAnchor(anchor, &anchor_bytes);
    EncodeCpuUsage(usage, &usage_bytes);
    trace::ClockAnchor parsed_anchor;
    trace::CpuUsage parsed_usage;
    REQUIRE(
        parsed_anchor.ParseFromArray(anchor_bytes.data(), static_cast<int>(anchor_bytes.size())));
    REQUIRE(parsed_usage.ParseFromArray(usage_bytes.data(), static_cast<int>(usage_bytes.size())));
    CheckAnchor(parsed_anchor, anchor);
    CheckUsage(parsed_usage, usage);
    CHECK(parsed_anchor.SerializeAsString() == anchor_bytes.view());
    CHECK(parsed_usage.SerializeAsString() == usage_bytes.view());
  }
}

TEST_CASE("a flight dump's header section parses into the values written, byte for byte") {
  FileHeaderValue header;
  header.rank = 3;
  header.flight.reason = "hang";
  header.flight.detail = "ALL_REDUCE #25 entered 1.2 s ago";
  header.flight.dump_ns = 123456789;
  header.flight.calls_seen = 70000;
  header.flight.calls_overwritten = 61808;
  header.flight.calls_torn = 1;
  header.flight.ring_entries = 8192;
  header.flight.unfinished.push_back({0xfeedbeefcafe, 25, 1, 1000, 4242});
  header.flight.unfinished.push_back({7, 3, 4, 0, 0, 2});
  header.flight.unfinished.push_back({7, 4, 1, 50, 1, 0, 1});  // returned, GPU enqueued
  header.flight.device_untracked = 3;
  header.flight.host_entries = 4096;
  header.flight.host_seen = 9000;
  header.flight.host_overwritten = 4904;
  header.flight.host_torn = 2;
  header.flight.host_threads_refused = 1;
  header.flight.host_threads_small = 6;
  header.flight.last_launches.push_back({0x7f00, "train_step_kernel", 555, 4242});
  header.flight.last_launches.push_back({0, "init_kernel", 444, 4243});
  const std::string bytes = EncodeFileHeader(header);
  trace::FileHeader parsed;
  REQUIRE(parsed.ParseFromString(bytes));
  REQUIRE(parsed.has_flight());
  CHECK(parsed.flight().reason() == "hang");
  CHECK(parsed.flight().detail() == header.flight.detail);
  CHECK(parsed.flight().dump_ns() == 123456789);
  CHECK(parsed.flight().calls_seen() == 70000);
  CHECK(parsed.flight().calls_overwritten() == 61808);
  CHECK(parsed.flight().calls_torn() == 1);
  CHECK(parsed.flight().ring_entries() == 8192);
  REQUIRE(parsed.flight().unfinished_size() == 3);
  CHECK(parsed.flight().unfinished(0).device_state() == 0);
  CHECK(parsed.flight().unfinished(2).device_state() == 1);
  CHECK(parsed.flight().device_untracked() == 3);
  CHECK(parsed.flight().unfinished(0).comm_hash() == 0xfeedbeefcafe);
  CHECK(parsed.flight().unfinished(0).sequence_number() == 25);
  CHECK(parsed.flight().unfinished(0).operation() == trace::NCCL_OPERATION_ALL_REDUCE);
  CHECK(parsed.flight().unfinished(0).enter_ns() == 1000);
  CHECK(parsed.flight().unfinished(0).thread_id() == 4242);
  CHECK(parsed.flight().unfinished(0).result() == 0);
  CHECK(parsed.flight().unfinished(1).result() == 2);
  CHECK(parsed.flight().host_entries() == 4096);
  CHECK(parsed.flight().host_seen() == 9000);
  CHECK(parsed.flight().host_overwritten() == 4904);
  CHECK(parsed.flight().host_torn() == 2);
  CHECK(parsed.flight().host_threads_refused() == 1);
  CHECK(parsed.flight().host_threads_small() == 6);
  REQUIRE(parsed.flight().last_launches_size() == 2);
  CHECK(parsed.flight().last_launches(0).stream() == 0x7f00);
  CHECK(parsed.flight().last_launches(0).kernel() == "train_step_kernel");
  CHECK(parsed.flight().last_launches(0).launch_ns() == 555);
  CHECK(parsed.flight().last_launches(0).thread_id() == 4242);
  CHECK(parsed.flight().last_launches(1).stream() == 0);
  CHECK(parsed.flight().last_launches(1).kernel() == "init_kernel");
  CHECK(Deterministic(parsed) == bytes);
  // A window file carries no flight section at all.
  trace::FileHeader window;
  REQUIRE(window.ParseFromString(EncodeFileHeader(FileHeaderValue{})));
  CHECK_FALSE(window.has_flight());
}

}  // namespace
}  // namespace prof
