// The builder's per-event paths: the first event of a name takes the general path (which
// fills the caches), later ones the fast path; both must write the same record.
#include <catch2/catch.hpp>

#include "analyzer/model/model_builder.h"

namespace prof::analyzer {
namespace {

trace::FileHeader HeaderWithAnchor(uint64_t host_ns, uint64_t cupti_ns) {
  trace::FileHeader header;
  trace::ClockAnchor* anchor = header.add_clock_anchors();
  anchor->set_host_monotonic_ns(host_ns);
  anchor->set_cupti_ns(cupti_ns);
  return header;
}

ApiCallEvent DriverCall(schema::ClockDomain clock, uint64_t start_ns) {
  ApiCallEvent event;
  event.thread_id = 11;
  event.clock = clock;
  event.start_ns = start_ns;
  event.duration_ns = 30;
  event.name = 5;
  event.correlation_id = start_ns;  // distinct per call
  event.domain = schema::API_DOMAIN_DRIVER;
  event.status = 3;
  event.stream = 9;
  event.bytes = 64;
  return event;
}

TEST_CASE("an API call is recorded alike on the first and on a repeated name") {
  FileDictionary dictionary;
  ModelBuilder builder(&dictionary, HeaderWithAnchor(1000, 5000));  // cupti - 4000
  builder.OnApiCall(DriverCall(schema::CLOCK_DOMAIN_HOST_MONOTONIC, 100));  // name uncached
  // Only this one is on the CUPTI clock: it must be counted for conversion too.
  builder.OnApiCall(DriverCall(schema::CLOCK_DOMAIN_CUPTI, 6000));
  const TraceModel model = std::move(builder).Finish("f");
  REQUIRE(model.api_calls.size() == 2);
  CHECK(model.event_count == 2);
  CHECK(model.api_calls[0].start_ns == 100);
  CHECK(model.api_calls[0].end_ns == 130);
  CHECK(model.api_calls[1].start_ns == 2000);
  CHECK(model.api_calls[1].end_ns == 2030);
  for (const ApiCall& call : model.api_calls) {
    CHECK(call.thread_id == 11);
    CHECK(call.name == model.api_calls[0].name);
    CHECK(call.name != 0);
    CHECK(call.driver);
    CHECK(call.failed());
    CHECK_FALSE(call.cupti_clock);
    CHECK(call.has_stream);
    CHECK(call.stream == 9);
    CHECK(call.status == 3);
    CHECK(call.bytes == 64);
    CHECK(call.copy_kind() == schema::COPY_KIND_UNKNOWN);
    CHECK(call.call_stack == 0);
    CHECK(call.launch == kNoIndex);
  }
  CHECK(model.quality.unknown_enum_values.empty());
}

TEST_CASE("an API call's unusual values are checked and counted on every call") {
  FileDictionary dictionary;
  ModelBuilder builder(&dictionary, trace::FileHeader());
  ApiCallEvent event = DriverCall(schema::CLOCK_DOMAIN_HOST_MONOTONIC, 100);
  builder.OnApiCall(event);  // fills the name cache
  event.domain = static_cast<schema::ApiDomain>(77);
  event.copy_kind = static_cast<schema::CopyKind>(99);
  builder.OnApiCall(event);
  event.domain = schema::API_DOMAIN_RUNTIME;
  event.copy_kind = schema::COPY_KIND_DEVICE_TO_HOST;
  builder.OnApiCall(event);
  const TraceModel model = std::move(builder).Finish("f");
  REQUIRE(model.api_calls.size() == 3);
  CHECK(model.quality.unknown_enum_values.at("API domain") == 1);
  CHECK(model.api_calls[1].copy_kind() == schema::COPY_KIND_UNKNOWN);  // undefined: unknown
  CHECK_FALSE(model.api_calls[2].driver);
  CHECK(model.api_calls[2].copy_kind() == schema::COPY_KIND_DEVICE_TO_HOST);
}

// A copy's kinds, each packed in a byte's worth of DeviceActivity: defined ones kept,
// undefined ones (a newer agent, a damaged file) counted and kept as unknown.
TEST_CASE("a copy keeps its defined kinds and reads undefined ones as unknown") {
  FileDictionary dictionary;
  ModelBuilder builder(&dictionary, trace::FileHeader());
  MemcpyEvent event;
  event.copy_kind = schema::COPY_KIND_DEFAULT;
  event.source_kind = schema::MEMORY_KIND_ARRAY;
  event.destination_kind = schema::MEMORY_KIND_PINNED;
  builder.OnMemcpy(event);
  event.copy_kind = static_cast<schema::CopyKind>(300);
  event.source_kind = schema::MEMORY_KIND_DEVICE_POOL;
  event.destination_kind = static_cast<schema::MemoryKind>(17);
  builder.OnMemcpy(event);
  const TraceModel model = std::move(builder).Finish("f");
  REQUIRE(model.device_activities.size() == 2);
  const DeviceActivity& defined = model.device_activities[0];
  CHECK(defined.copy_kind() == schema::COPY_KIND_DEFAULT);
  CHECK(defined.source_kind() == schema::MEMORY_KIND_ARRAY);
  CHECK(defined.destination_kind() == schema::MEMORY_KIND_PINNED);
  const DeviceActivity& undefined = model.device_activities[1];
  CHECK(undefined.copy_kind() == schema::COPY_KIND_UNKNOWN);
  CHECK(undefined.source_kind() == schema::MEMORY_KIND_DEVICE_POOL);
  CHECK(undefined.destination_kind() == schema::MEMORY_KIND_UNKNOWN);
  CHECK(model.quality.unknown_enum_values.at("copy kind") == 1);
  CHECK(model.quality.unknown_enum_values.at("memory kind") == 1);
}

TEST_CASE("a kernel is recorded alike on the first and on a repeated configuration") {
  FileDictionary dictionary;
  ModelBuilder builder(&dictionary, HeaderWithAnchor(1000, 5000));
  KernelEvent event;
  event.where.device = 2;
  event.where.stream = 7;
  event.config = 4;  // not defined: "<unknown kernel>", no launch
  event.duration_ns = 50;
  for (uint64_t start : {6000, 7000}) {
    event.start_ns = start;
    event.correlation_id = start;
    builder.OnKernel(event);
  }
  const TraceModel model = std::move(builder).Finish("f");
  REQUIRE(model.device_activities.size() == 2);
  CHECK(model.event_count == 2);
  CHECK(model.device_activities[0].start_ns == 2000);
  CHECK(model.device_activities[1].start_ns == 3000);
  for (const DeviceActivity& kernel : model.device_activities) {
    CHECK(kernel.end_ns == kernel.start_ns + 50);
    CHECK(kernel.kind == DeviceKind::kKernel);
    CHECK(model.names.Get(kernel.name) == "<unknown kernel>");
    CHECK_FALSE(kernel.nccl);
    CHECK(kernel.launch == kNoIndex);
    CHECK(kernel.device == 2);
    CHECK(kernel.stream == 7);
    CHECK(kernel.bytes == 0);
    CHECK(kernel.api_call == kNoIndex);
  }
}

// A segment's builder knows the file's anchors before its events (FixClock) and converts
// device records as they come: the same times, flags and clock figures as Finish's walk,
// with anchors and without (clocks assumed equal).
TEST_CASE("device records converted as added match those converted in Finish") {
  for (const bool anchored : {true, false}) {
    std::vector<TraceModel> models;
    for (const bool fixed : {false, true}) {
      FileDictionary dictionary;
      ModelBuilder builder(&dictionary,
                           anchored ? HeaderWithAnchor(1000, 5000) : trace::FileHeader());
      if (fixed) builder.FixClock();
      KernelEvent event;
      event.config = 4;
      event.duration_ns = 50;
      for (uint64_t start : {6000, 7000, 8000}) {
        event.start_ns = start;
        event.where.clock =
            start == 7000 ? schema::CLOCK_DOMAIN_HOST_MONOTONIC : schema::CLOCK_DOMAIN_CUPTI;
        builder.OnKernel(event);
      }
      models.push_back(std::move(builder).Finish("f"));
    }
    const TraceModel& walked = models[0];
    const TraceModel& added = models[1];
    REQUIRE(added.device_activities.size() == 3);
    CHECK(added.device_activities[0].start_ns == (anchored ? 2000 : 6000));
    CHECK(added.device_activities[1].start_ns == 7000);  // host clock: as recorded
    for (size_t i = 0; i < 3; ++i) {
      CHECK(added.device_activities[i].start_ns == walked.device_activities[i].start_ns);
      CHECK(added.device_activities[i].end_ns == walked.device_activities[i].end_ns);
    }
    CHECK(added.quality.cupti_clock_assumed_equal == !anchored);
    CHECK(added.quality.cupti_clock_assumed_equal == walked.quality.cupti_clock_assumed_equal);
    CHECK(added.quality.clock_lines == walked.quality.clock_lines);
  }
}

}  // namespace
}  // namespace prof::analyzer
