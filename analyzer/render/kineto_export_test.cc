// The Kineto export writes torch.profiler's layout. Expected values: the categories and
// argument keys Kineto's ChromeTraceLogger writes (libkineto ActivityType.h and
// MetadataFieldCatalog.h, copied here by hand, not from the exporter), and the test
// trace's records worked out by hand.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "analyzer/render/kineto_exporter.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

// Every category Kineto writes for CPU and CUDA activity (ActivityType.h's names).
const std::set<std::string> kKinetoCategories = {"cpu_op",
                                                 "user_annotation",
                                                 "gpu_user_annotation",
                                                 "gpu_memcpy",
                                                 "gpu_memset",
                                                 "kernel",
                                                 "external_correlation",
                                                 "cuda_runtime",
                                                 "cuda_driver",
                                                 "cpu_instant_event",
                                                 "python_function",
                                                 "overhead",
                                                 "cuda_sync",
                                                 "cuda_event",
                                                 "cuda_profiler_range",
                                                 "collective_comm",
                                                 "ac2g"};

constexpr uint64_t kThread = 11;

// One step (5) of rank 1 in a 4-rank job: aten::mm [500, 2500) launching gemm from
// cudaLaunchKernel [1000, 2000) (kernel on device 0, stream 7, [5000, 6000)); a
// cudaDeviceSynchronize outside any operator; a 1 MB copy; an all-reduce; a mark.
std::string WriteStepTrace() {
  testing::TestTrace trace(/*rank=*/1);
  trace.header().set_world_size(4);
  trace.Step(kThread, 0, 100000, 5);
  trace.Range(kThread, schema::RANGE_KIND_OPERATOR, "aten::mm", 500, 2500);
  trace.Launch(kThread, 1000, 2000, "gemm", 0, 7, 5000, 6000);
  trace.ApiCall(kThread, "cudaDeviceSynchronize", 3000, 3500);
  const uint64_t copy = trace.ApiCall(kThread, "cudaMemcpyAsync", 7000, 7500);
  trace.Memcpy(0, 7, 8000, 18000, 1000000, schema::COPY_KIND_HOST_TO_DEVICE, copy,
               schema::MEMORY_KIND_PAGEABLE, schema::MEMORY_KIND_DEVICE);
  trace.Nccl(kThread, schema::NCCL_OPERATION_ALL_REDUCE, 40000, 42000, 40, 4, /*sequence=*/3);
  trace.Mark(kThread, "checkpoint", 60000);
  return trace.Write("kineto_step.pb");
}

// Step 7 [0, 100 us) on kThread holding Optimizer.step#AdamW.step [50, 60 us), a
// record_function range (the helper's user range), and an NVTX range [65, 72 us). Launches
// from kThread: at 1 us (kernel 5-6 us, stream 7), 52 us in the optimizer (53-54 us,
// stream 7), 70 us in the NVTX range (80-90 us, stream 7), 75 us (76-77 us, stream 9); from
// thread 99, outside any annotation, at 20 us (30-31 us, stream 7).
std::string WriteAnnotatedStepTrace() {
  testing::TestTrace trace;
  trace.Step(kThread, 0, 100000, 7);
  trace.Range(kThread, schema::RANGE_KIND_USER, "Optimizer.step#AdamW.step", 50000, 60000);
  trace.Range(kThread, schema::RANGE_KIND_NVTX_PUSH_POP, "nvtx range", 65000, 72000);
  trace.Launch(kThread, 1000, 2000, "first", 0, 7, 5000, 6000);
  trace.Launch(kThread, 52000, 52500, "adam", 0, 7, 53000, 54000);
  trace.Launch(kThread, 70000, 70500, "in_nvtx", 0, 7, 80000, 90000);
  trace.Launch(kThread, 75000, 75500, "other_stream", 0, 9, 76000, 77000);
  trace.Launch(99, 20000, 20500, "backward_thread", 0, 7, 30000, 31000);
  return trace.Write("kineto_annotated.pb");
}

// cudaDeviceSynchronize [3, 3.5 us) outside any operator, its context synchronization
// (CUPTI's stream: none, 0xFFFFFFFF); cudaStreamSynchronize [12, 13 us) in aten::item
// [10, 20 us), its stream synchronization on stream 7.
std::string WriteSynchronizationTrace() {
  testing::TestTrace trace(/*rank=*/-1, /*pid=*/4242, /*cupti_offset_ns=*/0);
  trace.Step(kThread, 0, 100000, 1);
  trace.Range(kThread, schema::RANGE_KIND_OPERATOR, "aten::item", 10000, 20000);
  const uint64_t device_sync = trace.ApiCall(kThread, "cudaDeviceSynchronize", 3000, 3500);
  const uint64_t stream_sync = trace.ApiCall(kThread, "cudaStreamSynchronize", 12000, 13000);
  trace.Memset(0, 7, 30000, 31000, trace.ApiCall(kThread, "cudaMemsetAsync", 25000, 26000));
  // CUDA 13's <<<>>> launch, which the agent records under its entry point's name.
  trace.Kernel("from_chevrons", 0, 7, 45000, 46000,
               trace.ApiCall(kThread, "__cudaLaunchKernel", 40000, 41000));
  for (auto [correlation, stream, kind, start] :
       {std::tuple{device_sync, 0xFFFFFFFFu, schema::SYNCHRONIZATION_KIND_CONTEXT, 3000},
        std::tuple{stream_sync, 7u, schema::SYNCHRONIZATION_KIND_STREAM, 12000}}) {
    SynchronizationEvent event;
    event.where = StreamKey{0, 1, stream, schema::CLOCK_DOMAIN_CUPTI};
    event.start_ns = start;
    event.duration_ns = 400;
    event.kind = kind;
    event.correlation_id = correlation;
    trace.encoder().AddSynchronization(event);
  }
  return trace.Write("kineto_sync.pb");
}

Struct KinetoJsonOf(const TraceModel& model) {
  const std::string path = testing::TempPath("kineto_step.json");
  std::FILE* out = std::fopen(path.c_str(), "w");
  REQUIRE(out != nullptr);
  KinetoExportFigures figures;
  KinetoTraceExport exporter(out, /*origin_ns=*/0, &figures);
  exporter.AddWindow(model);
  REQUIRE(exporter.End().ok());
  std::fclose(out);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  Struct json;
  REQUIRE(google::protobuf::util::JsonStringToMessage(text.str(), &json).ok());
  return json;
}

const Struct& Args(const Struct& event) { return event.fields().at("args").struct_value(); }

std::vector<Struct> EventsNamed(const Struct& trace, const std::string& name) {
  std::vector<Struct> events;
  for (const Value& event : trace.fields().at("traceEvents").list_value().values()) {
    const auto& fields = event.struct_value().fields();
    if (fields.count("name") && fields.at("name").string_value() == name)
      events.push_back(event.struct_value());
  }
  return events;
}

double Number(const Struct& object, const std::string& key) {
  return object.fields().at(key).number_value();
}
std::string Text(const Struct& object, const std::string& key) {
  return object.fields().at(key).string_value();
}

TEST_CASE("Kineto export: torch.profiler's layout, categories and argument keys") {
  const Struct trace = KinetoJsonOf(testing::LoadOrDie(WriteStepTrace()));
  CHECK(Number(trace, "schemaVersion") == 1);
  const Struct& distributed = trace.fields().at("distributedInfo").struct_value();
  CHECK(Text(distributed, "backend") == "nccl");
  CHECK(Number(distributed, "rank") == 1);
  CHECK(Number(distributed, "world_size") == 4);
  CHECK(trace.fields().at("deviceProperties").list_value().values_size() == 1);

  SECTION("every category is one Kineto writes") {
    for (const Value& event : trace.fields().at("traceEvents").list_value().values()) {
      const auto& fields = event.struct_value().fields();
      if (fields.at("ph").string_value() == "M") continue;
      INFO(fields.at("name").string_value());
      CHECK(kKinetoCategories.count(fields.at("cat").string_value()) == 1);
    }
  }
  SECTION("the step is ProfilerStep#5, a user_annotation spanning it, in microseconds") {
    // And a gpu_user_annotation over its kernel (the next test case).
    const std::vector<Struct> steps = EventsNamed(trace, "ProfilerStep#5");
    REQUIRE(steps.size() == 2);
    const Struct& host = Text(steps[0], "cat") == "user_annotation" ? steps[0] : steps[1];
    CHECK(Text(host, "cat") == "user_annotation");
    CHECK(Number(host, "pid") == 4242);
    CHECK(Number(host, "ts") == Approx(0.0));
    CHECK(Number(host, "dur") == Approx(100.0));
  }
  SECTION(
      "operator, its runtime call and its kernel share an External id; ac2g links call and "
      "kernel") {
    const std::vector<Struct> op = EventsNamed(trace, "aten::mm");
    const std::vector<Struct> call = EventsNamed(trace, "cudaLaunchKernel");
    const std::vector<Struct> kernel = EventsNamed(trace, "gemm");
    REQUIRE((op.size() == 1 && call.size() == 1 && kernel.size() == 1));
    CHECK(Text(op[0], "cat") == "cpu_op");
    CHECK(Text(call[0], "cat") == "cuda_runtime");
    CHECK(Text(kernel[0], "cat") == "kernel");
    const double external = Number(Args(op[0]), "External id");
    CHECK(Number(Args(call[0]), "External id") == external);
    CHECK(Number(Args(kernel[0]), "External id") == external);
    CHECK(Number(Args(call[0]), "correlation") == Number(Args(kernel[0]), "correlation"));
    // Device rows: pid = device, tid = stream.
    CHECK(Number(kernel[0], "pid") == 0);
    CHECK(Number(kernel[0], "tid") == 7);
    for (const char* key : {"device", "stream", "correlation", "grid", "block",
                            "registers per thread", "shared memory"}) {
      INFO(key);
      CHECK(Args(kernel[0]).fields().count(key) == 1);
    }
    const std::vector<Struct> flows = EventsNamed(trace, "ac2g");
    REQUIRE(flows.size() == 4);  // s and f for the launch and for the copy
    std::set<std::pair<std::string, double>> ends;
    for (const Struct& flow : flows) ends.insert({Text(flow, "ph"), Number(flow, "id")});
    CHECK(ends.count({"s", Number(Args(call[0]), "correlation")}) == 1);
    CHECK(ends.count({"f", Number(Args(call[0]), "correlation")}) == 1);
  }
  SECTION("a call outside any operator has no External id; a copy carries bytes and bandwidth") {
    const std::vector<Struct> sync = EventsNamed(trace, "cudaDeviceSynchronize");
    REQUIRE(sync.size() == 1);
    CHECK(Args(sync[0]).fields().count("External id") == 0);
    bool found = false;
    for (const Value& event : trace.fields().at("traceEvents").list_value().values()) {
      const Struct& copy = event.struct_value();
      if (!copy.fields().count("cat") || Text(copy, "cat") != "gpu_memcpy") continue;
      found = true;
      CHECK(Text(copy, "name") == "Memcpy HtoD (Pageable -> Device)");  // libkineto's memcpyName
      CHECK(Number(Args(copy), "bytes") == 1000000);
      CHECK(Number(Args(copy), "memory bandwidth (GB/s)") == Approx(100.0));  // 1e6 B in 10 us
    }
    CHECK(found);
  }
  SECTION("an all-reduce is record_param_comms with torch's collective arguments") {
    const std::vector<Struct> comms = EventsNamed(trace, "record_param_comms");
    REQUIRE(comms.size() == 1);
    CHECK(Text(comms[0], "cat") == "cpu_op");
    CHECK(Text(Args(comms[0]), "Collective name") == "allreduce");
    CHECK(Number(Args(comms[0]), "Group size") == 4);
    CHECK(Number(Args(comms[0]), "Seq") == 3);
  }
  SECTION("a mark is a cpu_instant_event") {
    const std::vector<Struct> marks = EventsNamed(trace, "checkpoint");
    REQUIRE(marks.size() == 1);
    CHECK(Text(marks[0], "ph") == "i");
    CHECK(Text(marks[0], "cat") == "cpu_instant_event");
  }
}

// Kineto's rule (CuptiActivityProfiler: a GPU record's user correlation is the innermost
// record_function range open at its launch on the launching thread; its
// gpu_user_annotation spans that range's records on each stream, drawn 1 ns wider on each
// side, "External id" the CPU range's), worked out by hand for WriteAnnotatedStepTrace;
// torch's trace of (b) on the H100 agrees with it to the nanosecond (49 records a step, 8
// an optimizer step).
TEST_CASE("Kineto export: gpu_user_annotation as Kineto computes it") {
  const Struct trace = KinetoJsonOf(testing::LoadOrDie(WriteAnnotatedStepTrace()));
  auto gpu_annotations = [&](const std::string& name) {
    std::vector<Struct> found;
    for (const Struct& event : EventsNamed(trace, name)) {
      if (Text(event, "cat") == "gpu_user_annotation") found.push_back(event);
    }
    std::sort(found.begin(), found.end(), [](const Struct& a, const Struct& b) {
      return Number(a, "ts") < Number(b, "ts");
    });
    return found;
  };
  auto host_id = [&](const std::string& name) {
    const std::vector<Struct> host = EventsNamed(trace, name);
    REQUIRE(host.size() >= 1);
    for (const Struct& event : host) {
      if (Text(event, "cat") == "user_annotation") return Number(Args(event), "External id");
    }
    FAIL("no user_annotation " << name);
    return 0.0;
  };

  SECTION("the step: every stream its launches reached, less the optimizer's and thread 99's") {
    const std::vector<Struct> step = gpu_annotations("ProfilerStep#7");
    REQUIRE(step.size() == 2);
    // Stream 7: first [5, 6 us) to in_nvtx [80, 90 us); stream 9: [76, 77 us).
    CHECK(Number(step[0], "pid") == 0);
    CHECK(Number(step[0], "tid") == 7);
    CHECK(Number(step[0], "ts") == Approx(4.999));
    CHECK(Number(step[0], "dur") == Approx(85.002));
    CHECK(Number(step[1], "tid") == 9);
    CHECK(Number(step[1], "ts") == Approx(75.999));
    CHECK(Number(step[1], "dur") == Approx(1.002));
    CHECK(Number(Args(step[0]), "External id") == host_id("ProfilerStep#7"));
    CHECK(Number(Args(step[1]), "External id") == host_id("ProfilerStep#7"));
  }
  SECTION("the optimizer step: its own launch only") {
    const std::vector<Struct> adam = gpu_annotations("Optimizer.step#AdamW.step");
    REQUIRE(adam.size() == 1);
    CHECK(Number(adam[0], "tid") == 7);
    CHECK(Number(adam[0], "ts") == Approx(52.999));
    CHECK(Number(adam[0], "dur") == Approx(1.002));
    CHECK(Number(Args(adam[0]), "External id") == host_id("Optimizer.step#AdamW.step"));
  }
  SECTION("NVTX ranges are no annotation Kineto writes") {
    CHECK(gpu_annotations("nvtx range").empty());
  }
}

// Kineto's synchronization records (CuptiActivity.cpp, output_json.cpp, read by hand):
// named by syncTypeString, "cuda_sync_kind" the same; "stream" CUPTI's id as int32 (-1 for
// none) and the row its absolute value; "External id" the launch's operator's, or the
// record's own correlation id where it has none.
TEST_CASE("Kineto export: cuda_sync records as Kineto writes them") {
  const Struct trace = KinetoJsonOf(testing::LoadOrDie(WriteSynchronizationTrace()));
  const std::vector<Struct> context = EventsNamed(trace, "Context Sync");
  const std::vector<Struct> stream = EventsNamed(trace, "Stream Sync");
  const std::vector<Struct> item = EventsNamed(trace, "aten::item");
  REQUIRE((context.size() == 1 && stream.size() == 1 && item.size() == 1));
  CHECK(Text(context[0], "cat") == "cuda_sync");
  CHECK(Text(Args(context[0]), "cuda_sync_kind") == "Context Sync");
  CHECK(Number(Args(context[0]), "stream") == -1);
  CHECK(Number(context[0], "tid") == 1);
  CHECK(Number(Args(context[0]), "External id") == Number(Args(context[0]), "correlation"));
  CHECK(Text(Args(stream[0]), "cuda_sync_kind") == "Stream Sync");
  CHECK(Number(Args(stream[0]), "stream") == 7);
  CHECK(Number(stream[0], "tid") == 7);
  CHECK(Number(Args(stream[0]), "External id") == Number(Args(item[0]), "External id"));
  // A memset's memory kind is not recorded: Kineto's word for that, its "Memset (...)" form.
  const std::vector<Struct> memset = EventsNamed(trace, "Memset (Unknown)");
  REQUIRE(memset.size() == 1);
  CHECK(Text(memset[0], "cat") == "gpu_memset");
  // CUPTI names __cudaLaunchKernel's callback cudaLaunchKernel, and so does Kineto.
  CHECK(EventsNamed(trace, "__cudaLaunchKernel").empty());
  CHECK(EventsNamed(trace, "cudaLaunchKernel").size() == 1);
}

}  // namespace
}  // namespace prof::analyzer
