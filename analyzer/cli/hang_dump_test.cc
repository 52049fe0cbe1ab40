#include "analyzer/cli/hang_dump.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/cli/hang_render.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/testing/sliced_window.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

// Twelve steps (10000 + 1000 s ns, an ALL_REDUCE #s+1 on 0xC0FFEE at +720..+800 each, see
// sliced_window.cc) dumped at 21750 ns, in step 11 (21000-22000): its all-reduce #12 not
// completed, and a range open at the dump.
std::string WriteDump() {
  testing::TestTrace trace(3);
  trace.header().set_world_size(2);
  trace::FlightDump& flight = *trace.header().mutable_flight();
  flight.set_reason("watchdog");
  flight.set_dump_ns(21750);
  trace::FlightUnfinishedCall& call = *flight.add_unfinished();
  call.set_comm_hash(0xC0FFEE);
  call.set_sequence_number(12);
  call.set_device_state(1);
  trace::FlightLaunch& launch = *flight.add_last_launches();
  launch.set_kernel("gemm");
  launch.set_stream(0x70);
  testing::AddTwelveSteps(false, &trace);
  trace.Range(1, schema::RANGE_KIND_USER, "backward", 21600, 21750);  // open at the dump
  return trace.Write("hang_dump_sliced.pb");
}

TEST_CASE("hang: a dump read in slices gives what a whole read gives") {
  const std::string path = WriteDump();
  absl::StatusOr<TraceModel> whole_model = LoadTraceFile(path);
  REQUIRE(whole_model.ok());
  const RankDump whole = DumpOf(*whole_model);
  DumpBuilder builder;
  size_t slices = 0;
  REQUIRE(ReadTraceFileInSlices(path, {0, 1}, nullptr, [&](TraceModel slice) {
            builder.Add(slice);
            ++slices;
          }).ok());
  CHECK(slices >= 3);
  const RankDump sliced = builder.Finish();
  // By hand: twelve all-reduces #1-#12, the last not completed (enqueued); steps 0-11 done.
  CHECK(whole.calls.collectives.size() == 12);
  CHECK(whole.last_step == 11);
  CHECK(whole.last_call == "ALL_REDUCE #12 on communicator 0000000000c0ffee: not completed "
                           "(enqueued, not completed)");
  CHECK(whole.last.range == "backward (open at the dump)");
  CHECK(whole.last.api_call == "cudaMemcpyAsync (returned)");  // 21500-21550
  CHECK(whole.last.kernel == "gemm on stream 0x70");
  const HangReport whole_report = AnalyzeHang({whole});
  const HangReport sliced_report = AnalyzeHang({sliced});
  CHECK(RenderHangJson(sliced_report) == RenderHangJson(whole_report));
  CHECK(RenderHangText(sliced_report) == RenderHangText(whole_report));
}

}  // namespace
}  // namespace prof::analyzer
