#include <catch2/catch.hpp>

#include "analyzer/model/clock_alignment.h"
#include "analyzer/model/kernel_names.h"
#include "analyzer/model/model_builder.h"
#include "analyzer/model/model_merge.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

trace::ClockAnchor Anchor(uint64_t host, uint64_t cupti) {
  trace::ClockAnchor anchor;
  anchor.set_host_monotonic_ns(host);
  anchor.set_cupti_ns(cupti);
  return anchor;
}

TEST_CASE("CUPTI times move onto the host clock: offset, interpolation, nearest anchor outside") {
  const CuptiToHostClock clock(
      {Anchor(1000, 5000), Anchor(3000, 7100)});  // drift: 100 ns over 2000
  CHECK(clock.aligned());
  CHECK(clock.ToHost(5000) == 1000);
  CHECK(clock.ToHost(7100) == 3000);
  CHECK(clock.ToHost(6050) == 2000);  // offset -4000 .. -4100 halfway: -4050
  CHECK(clock.ToHost(4000) == 0);     // before the first anchor: its offset
  CHECK(clock.ToHost(8100) == 4000);  // after the last: its offset
}

TEST_CASE("without a CUPTI anchor the clocks are assumed equal and that is reported") {
  const CuptiToHostClock clock({Anchor(1000, 0)});
  CHECK_FALSE(clock.aligned());
  CHECK(clock.ToHost(123456) == 123456);
  CHECK(clock.Describe().find("assumed equal") != std::string::npos);
}

TEST_CASE("kernel names are demangled and both NCCL generations recognized") {
  CHECK(DemangleKernelName("_Z11gemm_kernelILi128EEvPKfS1_Pfiii") ==
        "void gemm_kernel<128>(float const*, float const*, float*, int, int, int)");
  CHECK(DemangleKernelName("volta_sgemm_128x64_nn") == "volta_sgemm_128x64_nn");
  CHECK(DemangleKernelName("_Z13not_valid") == "_Z13not_valid");  // kept as is
  CHECK(IsNcclKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
  CHECK(IsNcclKernelName(
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  CHECK(IsNcclKernelName("_Z31ncclDevKernel_AllGather_RING_LL24ncclDevKernelArgsStorageILm4096EE"));
  CHECK_FALSE(IsNcclKernelName("nccl_like_gemm"));
  CHECK(std::string(MemcpyName(schema::COPY_KIND_DEFAULT, schema::MEMORY_KIND_PINNED,
                               schema::MEMORY_KIND_DEVICE)) == "MEMCPY_HtoD");
}

TEST_CASE("a file's device records are aligned to host time through its anchors") {
  testing::TestTrace anchored(-1, 1, 7000000, true);
  anchored.Launch(1, 100, 110, "k", 0, 7, 200, 300);
  const TraceModel model = testing::LoadOrDie(anchored.Write("anchored.pb"));
  REQUIRE(model.device_activities.size() == 1);
  CHECK(model.device_activities[0].start_ns == 200);
  CHECK(model.device_activities[0].end_ns == 300);
  CHECK(model.device_activities[0].api_call == 0);
  CHECK_FALSE(model.quality.cupti_clock_assumed_equal);

  testing::TestTrace unanchored(-1, 1, 7000000, false);
  unanchored.Launch(1, 100, 110, "k", 0, 7, 200, 300);
  const TraceModel shifted = testing::LoadOrDie(unanchored.Write("unanchored.pb"));
  CHECK(shifted.device_activities[0].start_ns == 7000200);
  CHECK(shifted.quality.cupti_clock_assumed_equal);
}

TEST_CASE("device records without their launching call are counted, not dropped") {
  testing::TestTrace trace;
  trace.Launch(1, 100, 110, "k", 0, 7, 200, 300);
  trace.Kernel("orphan", 0, 7, 400, 450, 999999);
  trace.Memcpy(0, 7, 500, 550, 64, schema::COPY_KIND_HOST_TO_DEVICE, 0);
  const TraceModel model = testing::LoadOrDie(trace.Write("unmatched.pb"));
  REQUIRE(model.device_activities.size() == 3);
  CHECK(model.quality.unmatched_device_records.at("Kernel") == 1);
  CHECK(model.quality.unmatched_device_records.at("Memcpy") == 1);
  CHECK(model.device_activities[1].api_call == kNoIndex);
}

TEST_CASE("windows of one process merge with names re-interned and launch links kept") {
  testing::TestTrace first;
  first.Launch(1, 100, 110, "alpha", 0, 7, 200, 300);
  testing::TestTrace second;
  second.ApiCall(1, "cudaMemsetAsync", 1000, 1010, 50);
  second.Launch(1, 2000, 2010, "beta", 0, 7, 2100, 2300);
  TraceModel merged = testing::LoadOrDie(first.Write("w0.pb"));
  AppendModel(testing::LoadOrDie(second.Write("w1.pb")), &merged);
  REQUIRE(merged.device_activities.size() == 2);
  const DeviceActivity& beta = merged.device_activities[1];
  CHECK(merged.names.Get(beta.name) == "beta");
  REQUIRE(beta.api_call == 2);
  CHECK(merged.names.Get(merged.api_calls[beta.api_call].name) == "cudaLaunchKernel");
  CHECK(merged.files.size() == 2);
  CHECK(merged.event_count == 5);
}

// A slicer's held records continue in the next segment's builder, not copied into it: the
// earlier names keep their ids, new ones follow, and the file's header is held once.
TEST_CASE("a builder continues an earlier segment's model in place") {
  FileDictionary dictionary;
  trace::Chunk strings;
  strings.set_first_string_id(1);
  strings.add_strings("cudaLaunchKernel");  // id 1
  strings.add_strings("cudaMemcpyAsync");   // id 2
  dictionary.AddDefinitions(strings);
  trace::FileHeader header;
  header.set_pid(42);
  ApiCallEvent launch;
  launch.name = 1;
  launch.start_ns = 100;
  launch.clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;
  ModelBuilder first(&dictionary, header);
  first.OnApiCall(launch);
  TraceModel earlier = first.Finish("f.pb", false);
  earlier.files.clear();
  const NameId launch_name = earlier.api_calls[0].name;

  ModelBuilder next(&dictionary, header, std::move(earlier));
  ApiCallEvent copy = launch;
  copy.name = 2;
  copy.start_ns = 300;
  launch.start_ns = 200;
  next.OnApiCall(launch);
  next.OnApiCall(copy);
  const TraceModel model = next.Finish("f.pb", false);
  REQUIRE(model.api_calls.size() == 3);
  CHECK(model.api_calls[1].start_ns == 200);
  CHECK(model.api_calls[1].name == launch_name);
  CHECK(model.names.Get(model.api_calls[2].name) == "cudaMemcpyAsync");
  CHECK(model.api_calls[2].name != launch_name);
  CHECK(model.event_count == 3);
  CHECK(model.headers.size() == 1);
  CHECK(model.identity.pid == 42);
  CHECK(model.files == std::vector<std::string>{"f.pb"});
}

// Host-side records may carry CUPTI times too; the builder skips their vectors only when
// none does. A continued segment converts its own records and not the earlier ones again.
TEST_CASE("host records on the CUPTI clock move to host time, once per segment") {
  FileDictionary dictionary;
  trace::FileHeader header;
  *header.add_clock_anchors() = Anchor(1000, 5000);  // host = cupti - 4000
  ApiCallEvent call;
  call.clock = schema::CLOCK_DOMAIN_CUPTI;
  call.start_ns = 5100;
  call.duration_ns = 10;
  HostRangeEvent range;
  range.clock = schema::CLOCK_DOMAIN_CUPTI;
  range.kind = schema::RANGE_KIND_USER;
  range.start_ns = 5050;
  range.duration_ns = 100;
  ModelBuilder first(&dictionary, header);
  first.OnApiCall(call);
  first.OnHostRange(range);
  TraceModel earlier = first.Finish("f.pb", false);
  REQUIRE(earlier.api_calls.size() == 1);
  CHECK(earlier.api_calls[0].start_ns == 1100);
  CHECK(earlier.api_calls[0].end_ns == 1110);
  REQUIRE(earlier.ranges.size() == 1);
  CHECK(earlier.ranges[0].start_ns == 1050);
  CHECK(earlier.ranges[0].end_ns == 1150);

  ModelBuilder next(&dictionary, header, std::move(earlier));
  call.start_ns = 6000;
  next.OnApiCall(call);
  call.clock = schema::CLOCK_DOMAIN_HOST_MONOTONIC;  // already host time: kept
  call.start_ns = 7000;
  next.OnApiCall(call);
  const TraceModel model = next.Finish("f.pb", false);
  REQUIRE(model.api_calls.size() == 3);
  CHECK(model.api_calls[0].start_ns == 1100);  // not shifted a second time
  CHECK(model.api_calls[1].start_ns == 2000);
  CHECK(model.api_calls[1].end_ns == 2010);
  CHECK(model.api_calls[2].start_ns == 7000);
  CHECK(model.ranges[0].start_ns == 1050);
}

// The builder splits each emit_nvtx name once; every range of it still gets the NAME, and
// the sizes as shapes unless it recorded shapes of its own.
TEST_CASE("repeated emit_nvtx range names are split alike, own shapes kept") {
  FileDictionary dictionary;
  trace::Chunk strings;
  strings.set_first_string_id(1);
  strings.add_strings("aten::mm, seq = 1, op_id = 2, sizes = [[4, 8], [8, 2]]");  // id 1
  strings.add_strings("[[9]]");                                                   // id 2
  strings.add_strings("aten::relu");                                              // id 3
  dictionary.AddDefinitions(strings);
  ModelBuilder builder(&dictionary, trace::FileHeader());
  HostRangeEvent range;  // an NVTX push/pop range: shown as an operator
  range.name = 1;
  range.shapes = 2;
  builder.OnHostRange(range);
  range.shapes = 0;
  builder.OnHostRange(range);
  builder.OnHostRange(range);
  range.name = 3;
  builder.OnHostRange(range);
  const TraceModel model = builder.Finish("f.pb");
  REQUIRE(model.ranges.size() == 4);
  for (int i = 0; i < 3; ++i) CHECK(model.names.Get(model.ranges[i].name) == "aten::mm");
  CHECK(model.names.Get(model.ranges[0].shapes) == "[[9]]");
  CHECK(model.names.Get(model.ranges[1].shapes) == "[[4, 8], [8, 2]]");
  CHECK(model.ranges[2].shapes == model.ranges[1].shapes);
  CHECK(model.names.Get(model.ranges[3].name) == "aten::relu");
  CHECK(model.ranges[3].shapes == 0);
}

}  // namespace
}  // namespace prof::analyzer
