// A flight dump written from a snapshot made by hand (flight_dump.h), read back as any
// trace file is: the step in progress at the dump is written ending at the dump's time and
// marked open (kStepOpenAtExit), a range open at the dump ends there and is counted
// (LOSS_KIND_RANGE_OPEN_AT_END), and what the host rings lost is in the header and in the
// loss records that every command's Data Quality table shows.
#include "agent/writer/flight_dump.h"

#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "proto/chunk_decoder.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace {

struct Seen {
  std::vector<StepEvent> steps;
  std::vector<HostRangeEvent> ranges;
  std::map<schema::LossKind, uint64_t> losses;
};

class Sink : public EventSink {
 public:
  explicit Sink(Seen* seen) : seen_(seen) {}
  void OnStep(const StepEvent& step) override { seen_->steps.push_back(step); }
  void OnHostRange(const HostRangeEvent& range) override { seen_->ranges.push_back(range); }
  void OnLoss(schema::LossKind kind, uint64_t count) override { seen_->losses[kind] += count; }

 private:
  Seen* seen_;
};

FlightHostEntry Range(const char* name, uint64_t start_ns, uint64_t end_ns) {
  FlightHostEntry entry;
  entry.kind = FlightHostKind::kRange;
  entry.thread_id = 7;
  entry.start_ns = start_ns;
  entry.end_ns = end_ns;
  std::snprintf(entry.name, sizeof(entry.name), "%s", name);
  return entry;
}

TEST_CASE("the step and a range open at the dump end at its time, marked; ring losses counted") {
  FlightSnapshot snapshot;
  snapshot.steps = {{4, 1000, 2000}, {5, 2000, 3000}};  // step 6 began at 3000, never ended
  snapshot.host.entries_per_thread = 16;
  snapshot.host.entries = {Range("Forward", 3100, 3400), Range("Backward", 3500, 0)};
  snapshot.host.seen = 40;
  snapshot.host.overwritten = 38 - 2;  // 36 lapped, 2 torn, 2 kept
  snapshot.host.torn = 2;
  snapshot.host.threads_small = 3;
  snapshot.host.threads_refused = 1;
  FlightDumpRequest request;
  request.path = "/tmp/flight_dump_test_" + std::to_string(getpid()) + ".prof.pb";
  request.reason = "hang";
  request.dump_ns = 9000;
  std::string error;
  REQUIRE(WriteFlightDump(request, snapshot, &error));

  auto reader = TraceFileReader::Open(request.path);
  REQUIRE(reader.ok());
  const trace::FlightDump& flight = (*reader)->header().flight();
  CHECK(flight.host_overwritten() == 36);
  CHECK(flight.host_torn() == 2);
  CHECK(flight.host_threads_small() == 3);
  CHECK(flight.host_threads_refused() == 1);
  Seen seen;
  Sink sink(&seen);
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) DecodeChunk(chunk, &sink);
  std::remove(request.path.c_str());

  REQUIRE(seen.steps.size() == 3);
  CHECK(seen.steps[1].sample_count == 0);  // a step that ended: samples unknown
  const StepEvent& open = seen.steps[2];
  CHECK(open.step_number == 6);
  CHECK(open.start_ns == 3000);
  CHECK(open.duration_ns == 6000);  // to the dump
  CHECK(open.sample_count == kStepOpenAtExit);
  REQUIRE(seen.ranges.size() == 2);
  CHECK(seen.ranges[1].start_ns == 3500);
  CHECK(seen.ranges[1].duration_ns == 5500);  // Backward, open: ends at the dump, in step 6
  CHECK(seen.losses[schema::LOSS_KIND_RANGE_OPEN_AT_END] == 1);
  CHECK(seen.losses[schema::LOSS_KIND_FLIGHT_HOST_OVERWRITTEN] == 36);
  CHECK(seen.losses[schema::LOSS_KIND_FLIGHT_HOST_TORN] == 2);
  CHECK(seen.losses[schema::LOSS_KIND_FLIGHT_HOST_THREAD_REFUSED] == 1);
}

TEST_CASE("without a step boundary there is no open step to write") {
  FlightSnapshot snapshot;
  FlightDumpRequest request;
  request.path = "/tmp/flight_dump_test_nosteps_" + std::to_string(getpid()) + ".prof.pb";
  request.reason = "trigger";
  request.dump_ns = 9000;
  std::string error;
  REQUIRE(WriteFlightDump(request, snapshot, &error));
  auto reader = TraceFileReader::Open(request.path);
  REQUIRE(reader.ok());
  Seen seen;
  Sink sink(&seen);
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) DecodeChunk(chunk, &sink);
  std::remove(request.path.c_str());
  CHECK(seen.steps.empty());
  CHECK(seen.losses.empty());  // nothing lost, nothing counted
}

}  // namespace
}  // namespace prof
