// A flight dump's host activity (flight_host_dump.h): the header's counts and the last
// launch per stream, latest first, from a snapshot made by hand.
#include "agent/writer/flight_host_dump.h"

#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

std::string NameByAddress(const void* function) {
  return "kernel_" + std::to_string(reinterpret_cast<uintptr_t>(function));
}

FlightHostEntry Launch(uint64_t stream_plus_one, uintptr_t function, uint64_t start_ns) {
  FlightHostEntry entry;
  entry.kind = FlightHostKind::kApiCall;
  entry.api = 1;
  entry.thread_id = 77;
  entry.start_ns = start_ns;
  entry.end_ns = start_ns + 5;
  entry.stream_plus_one = stream_plus_one;
  entry.function = reinterpret_cast<const void*>(function);
  return entry;
}

TEST_CASE("the header names the last kernel launched on each stream and what the rings lost") {
  FlightHostSnapshot host;
  host.entries_per_thread = 4096;
  host.seen = 10;
  host.overwritten = 3;
  host.torn = 1;
  host.threads_refused = 2;
  host.threads_small = 5;
  host.entries.push_back(Launch(1, 16, 100));     // legacy stream: kernel_16, then kernel_32
  host.entries.push_back(Launch(0x51, 48, 150));  // stream 0x50
  host.entries.push_back(Launch(1, 32, 200));
  FlightHostEntry sync;  // not a launch: no kernel
  sync.start_ns = 300;
  sync.stream_plus_one = 0x51;
  host.entries.push_back(sync);
  FlightHostEntry range;
  range.kind = FlightHostKind::kRange;
  range.start_ns = 250;
  std::snprintf(range.name, sizeof(range.name), "forward");
  host.entries.push_back(range);
  ChunkEncoder encoder;
  FlightDumpValue flight;
  EncodeFlightHost(host, 1000, NameByAddress, &encoder, &flight);
  CHECK(flight.host_entries == 4096);
  CHECK(flight.host_seen == 10);
  CHECK(flight.host_overwritten == 3);
  CHECK(flight.host_torn == 1);
  CHECK(flight.host_threads_refused == 2);
  CHECK(flight.host_threads_small == 5);
  REQUIRE(flight.last_launches.size() == 2);
  CHECK(flight.last_launches[0].kernel == "kernel_32");
  CHECK(flight.last_launches[0].stream == 0);
  CHECK(flight.last_launches[0].launch_ns == 200);
  CHECK(flight.last_launches[0].thread_id == 77);
  CHECK(flight.last_launches[1].kernel == "kernel_48");
  CHECK(flight.last_launches[1].stream == 0x50);
}

}  // namespace
}  // namespace prof
