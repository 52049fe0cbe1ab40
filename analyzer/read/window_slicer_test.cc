// A window read in step-aligned slices gives the summary a whole read gives: the same
// text and JSON, byte for byte, with device records arriving chunks after their calls,
// memory alive across slices and names renumbered at each cut; what cannot be placed is
// counted, never dropped.
#include "analyzer/read/window_slicer.h"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/match.h"
#include "analyzer/model/correlation.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/render/json_renderer.h"
#include "analyzer/render/report_text.h"
#include "analyzer/summary/report.h"
#include "analyzer/testing/sliced_window.h"
#include "analyzer/testing/synthetic_trace.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using testing::AddTwelveSteps;
using testing::TempPath;
using testing::TestTrace;

struct Output {
  std::string text;
  std::string json;
  size_t windows = 0;
  uint64_t late = 0;
};

Output Render(ProcessAnalysis analysis, size_t windows) {
  std::vector<ProcessReport> reports = {std::move(analysis).Finish()};
  Output output;
  output.text = RenderReportsText(reports, std::nullopt, TimeUnit::kMicroseconds);
  output.json = RenderReportsJson(reports, std::nullopt, {});
  output.windows = windows;
  return output;
}

Output Whole(const std::string& path) {
  ProcessAnalysis analysis({}, AllViews());
  absl::StatusOr<TraceModel> model = LoadTraceFile(path);
  REQUIRE(model.ok());
  analysis.AddWindow(*std::move(model));
  return Render(std::move(analysis), 1);
}

// Every file sliced, a segment every `segment_events` events (whole chunks).
Output Sliced(const std::string& path, uint64_t segment_events) {
  ProcessAnalysis analysis({}, AllViews());
  size_t windows = 0;
  uint64_t late = 0;
  const absl::Status status =
      ReadTraceFileInSlices(path, {0, segment_events}, nullptr, [&](TraceModel slice) {
        ++windows;
        late += slice.quality.late_slice_records;
        analysis.AddWindow(std::move(slice));
      });
  REQUIRE(status.ok());
  Output output = Render(std::move(analysis), windows);
  output.late = late;
  return output;
}

TEST_CASE("a synthetic trace read in slices prints what a whole read prints") {
  const std::string path = TempPath("sliced_synthetic.pb");
  // 200 groups of 20 events a step; chunks of 65536 events: 5 chunks, 15 steps.
  REQUIRE(WriteSyntheticTrace(path, 300000) > 0);
  const Output whole = Whole(path);
  const Output sliced = Sliced(path, 1);  // a segment per chunk
  CHECK(sliced.windows >= 3);
  CHECK(sliced.late == 0);
  CHECK(sliced.text == whole.text);
  CHECK(sliced.json == whole.json);
}

TEST_CASE("device records a chunk after their calls, memory across slices: the same output") {
  TestTrace trace(0);
  AddTwelveSteps(false, &trace);
  const std::string path = trace.Write("sliced_twelve.pb");
  const Output whole = Whole(path);
  const Output sliced = Sliced(path, 1);
  CHECK(sliced.windows >= 4);  // a cut once two more steps are read: several slices
  CHECK(sliced.late == 0);
  CHECK(sliced.text == whole.text);
  CHECK(sliced.json == whole.json);
  CHECK(whole.text.find("aten::mm") != std::string::npos);
}

// CUPTI hands its records on a full buffer at a time, so device records can arrive steps
// after their launches: a stream whose latest record read is steps old is lagging, not
// idle, and no cut may pass the latest call a device record answered.
TEST_CASE("device records arriving four steps after their launches hold the cut back") {
  TestTrace trace(0);
  AddTwelveSteps(false, &trace, 4);
  const std::string path = trace.Write("sliced_kernels_lagging.pb");
  const Output whole = Whole(path);
  const Output sliced = Sliced(path, 1);
  CHECK(sliced.windows >= 2);
  CHECK(sliced.late == 0);
  CHECK(sliced.text == whole.text);
  CHECK(sliced.json == whole.json);
}

TEST_CASE("device records read after their slice closed are counted, not dropped") {
  TestTrace trace(0);
  AddTwelveSteps(true, &trace);
  const std::string path = trace.Write("sliced_kernels_last.pb");
  const Output whole = Whole(path);
  const Output sliced = Sliced(path, 1);
  CHECK(sliced.windows >= 2);
  // The last slice holds steps 10 and 11 (no cut has two steps after it); every kernel
  // launched before it, 2 per step for steps 0-9, arrived after its slice closed.
  CHECK(sliced.late == 20);
  CHECK(sliced.text.find("records after their slice") != std::string::npos);
  CHECK(whole.text.find("records after their slice") == std::string::npos);
  // Still in the Kernel Summary: 24 kernels either way.
  CHECK(sliced.json.find("\"calls\":24") != std::string::npos);
  CHECK(whole.json.find("\"calls\":24") != std::string::npos);
}

TEST_CASE("an enclosing range arriving after its slice closed is counted") {
  TestTrace trace(0);
  AddTwelveSteps(false, &trace);
  trace.Range(1, schema::RANGE_KIND_USER, "epoch", 10000, 22000);  // written last
  const Output sliced = Sliced(trace.Write("sliced_enclosing.pb"), 1);
  CHECK(sliced.late == 1);
  CHECK(sliced.text.find("epoch") != std::string::npos);
}

// Past SliceOptions::force_events held, the latest step end with two more steps is cut
// although the rule forbids it (here a range read first spans every step), so the memory
// held stays bounded; below it the window is held whole.
TEST_CASE("past force_events held, a cut is forced") {
  TestTrace trace(0);
  trace.Range(1, schema::RANGE_KIND_USER, "epoch", 10000, 22000);  // read first
  AddTwelveSteps(false, &trace);
  const std::string path = trace.Write("sliced_forced.pb");
  size_t unforced = 0, forced = 0;
  REQUIRE(ReadTraceFileInSlices(path, {0, 1}, nullptr, [&](TraceModel) { ++unforced; }).ok());
  REQUIRE(ReadTraceFileInSlices(path, {0, 1, 40}, nullptr, [&](TraceModel) { ++forced; }).ok());
  CHECK(unforced == 1);
  CHECK(forced >= 2);
}

// A model by hand: steps [0,100) [100,200) [200,300) [300,400) on thread 1.
TraceModel FourSteps() {
  TraceModel model;
  for (uint64_t s = 0; s < 4; ++s) {
    HostRange step;
    step.thread_id = 1;
    step.start_ns = s * 100;
    step.end_ns = s * 100 + 100;
    step.type = RangeType::kProfileStep;
    step.step_number = static_cast<int64_t>(s);
    step.name = model.names.Intern("ProfileStep#" + std::to_string(s));
    model.ranges.push_back(step);
  }
  return model;
}

// ChooseCut after linking `model`, which finds each stream's latest start; `answering`:
// as in a file with device records, no cut after the latest call a device record answered.
std::optional<uint64_t> LinkedCut(TraceModel* model, bool force, bool answering = false) {
  StreamLatestStarts stream_latest;
  uint64_t answered = 0;
  LinkDeviceActivitiesToApiCalls(model, &stream_latest, &answered);
  return ChooseCut(*model, force, stream_latest, answering ? answered : ~uint64_t{0});
}

TEST_CASE("a cut needs two more steps, no spanning range, and streams read past it") {
  TraceModel model = FourSteps();
  CHECK(LinkedCut(&model, false) == uint64_t{200});  // steps 2 and 3 read after it
  HostRange user;
  user.start_ns = 150;
  user.end_ns = 250;
  user.type = RangeType::kUserDefined;
  model.ranges.push_back(user);
  CHECK(LinkedCut(&model, false) == uint64_t{100});  // 200 is spanned
  CHECK(LinkedCut(&model, true) == uint64_t{200});   // forced: spanned or not
  DeviceActivity kernel;
  kernel.stream = 7;
  kernel.start_ns = 50;  // stream 7 active in step 0 and not read past 100
  model.device_activities.push_back(kernel);
  CHECK_FALSE(LinkedCut(&model, false).has_value());
  model.device_activities.back().start_ns = 120;  // read past 100 now
  CHECK(LinkedCut(&model, false) == uint64_t{100});
  model.ranges.resize(2);
  CHECK_FALSE(LinkedCut(&model, false).has_value());  // two steps: nothing after a cut
}

TEST_CASE("in a file with device records, a cut waits for a call answered past it") {
  TraceModel model = FourSteps();
  CHECK_FALSE(LinkedCut(&model, false, true).has_value());  // no device record read yet
  CHECK(LinkedCut(&model, true, true) == uint64_t{200});    // forced: read or not
  for (const uint64_t start : {90, 150}) {
    ApiCall call;
    call.start_ns = start;
    call.correlation_id = start;
    model.api_calls.push_back(call);
    DeviceActivity kernel;
    kernel.start_ns = start + 500;  // runs long after: its call's time decides
    kernel.correlation_id = start;
    model.device_activities.push_back(kernel);
  }
  CHECK(LinkedCut(&model, false, true) == uint64_t{100});  // answered to 150, not past 200
  model.api_calls[1].start_ns = 210;
  CHECK(LinkedCut(&model, false, true) == uint64_t{200});
}

TEST_CASE("a slice takes the records before the cut, device records with their call") {
  TraceModel model = FourSteps();
  ApiCall early, late;
  early.start_ns = 190;
  early.name = model.names.Intern("cudaLaunchKernel");
  late.start_ns = 210;
  late.name = early.name;
  model.api_calls = {early, late};
  model.kernel_launches.resize(2);
  model.kernel_launches[1].grid[0] = 80;
  DeviceActivity kernel;
  kernel.start_ns = 205;  // after the cut, but launched before it
  kernel.api_call = 0;
  kernel.launch = 1;
  kernel.name = model.names.Intern("gemm");
  DeviceActivity orphan = kernel;  // no call: its own time decides
  orphan.api_call = kNoIndex;
  orphan.name = model.names.Intern("orphan");
  model.device_activities = {kernel, orphan};
  model.thread_names[1] = model.names.Intern("main");
  model.files = {"f.pb"};
  model.quality.malformed_blocks = 3;
  model.event_count = 8;

  const TraceModel slice = TakeSliceBefore(200, &model);
  REQUIRE(slice.ranges.size() == 2);  // steps 0 and 1
  REQUIRE(slice.api_calls.size() == 1);
  REQUIRE(slice.device_activities.size() == 1);
  CHECK(slice.device_activities[0].api_call == 0);
  CHECK(slice.names.Get(slice.device_activities[0].name) == "gemm");
  // The slice keeps the model's launches and names (ids unchanged); what stays renumbers.
  REQUIRE(slice.kernel_launches.size() == 2);
  CHECK(slice.device_activities[0].launch == 1);
  CHECK(slice.kernel_launches[1].grid[0] == 80u);
  CHECK(slice.names.Get(slice.thread_names.at(1)) == "main");
  CHECK(slice.event_count == 4);
  CHECK(slice.files.empty());
  CHECK(slice.quality.malformed_blocks == 0);

  CHECK(model.ranges.size() == 2);
  REQUIRE(model.api_calls.size() == 1);
  REQUIRE(model.device_activities.size() == 1);
  CHECK(model.names.Get(model.device_activities[0].name) == "orphan");
  CHECK(model.kernel_launches.size() == 1);
  CHECK(model.names.size() == 6);  // "", steps 2 and 3, the call, "orphan", "main"
  CHECK(model.event_count == 4);
  CHECK(model.files == std::vector<std::string>{"f.pb"});
  CHECK(model.quality.malformed_blocks == 3);
}

// The agent reads the host's RSS at a step boundary, for the step that ends there (the
// Memory per Step table places it one nanosecond earlier): cut at that boundary, the
// reading goes with that step. It went after the cut, where no step of the next slice
// holds it, and its row was lost at every cut. A device sample at the boundary is the
// next step's.
TEST_CASE("a host RSS reading taken at a step's end goes with that step") {
  TraceModel model = FourSteps();
  MemorySample rss;
  rss.time_ns = 200;
  rss.rss = 4096;
  MemorySample device = rss;
  device.device = 0;
  model.memory_samples = {rss, device};
  uint64_t late = 0;
  const TraceModel slice = TakeSliceBefore(200, &model, 200, &late);
  REQUIRE(slice.memory_samples.size() == 1);
  CHECK(slice.memory_samples[0].device == -1);
  REQUIRE(model.memory_samples.size() == 1);
  CHECK(model.memory_samples[0].device == 0);
  CHECK(late == 3);  // steps 0 and 1 and the reading, by the same rule
}

// The records before the cut keep their vectors and those after are written out, however
// many: both keep their order, with their names and call indices renumbered. Records late
// for an earlier cut are counted in the same pass, a device record by its call's time.
TEST_CASE("a slice keeps the order of its records whichever side is larger") {
  for (const uint64_t cut : {uint64_t{35}, uint64_t{15}}) {  // 3 of 4 calls before; 1 of 4
    TraceModel model;
    for (uint64_t start : {10, 20, 30, 40}) {
      ApiCall call;
      call.start_ns = start;
      call.name = model.names.Intern("call" + std::to_string(start));
      model.api_calls.push_back(call);
      DeviceActivity kernel;
      kernel.start_ns = 100 - start;  // ran late: its call decides its side
      kernel.api_call = static_cast<int32_t>(model.api_calls.size() - 1);
      kernel.name = model.names.Intern("kernel" + std::to_string(start));
      model.device_activities.push_back(kernel);
    }
    uint64_t late = 99;
    const TraceModel slice = TakeSliceBefore(cut, &model, 25, &late);
    CHECK(late == 4);  // the calls at 10 and 20, and their kernels (run at 90 and 80)
    const std::vector<uint64_t> before =
        cut == 35 ? std::vector<uint64_t>{10, 20, 30} : std::vector<uint64_t>{10};
    const std::vector<uint64_t> after =
        cut == 35 ? std::vector<uint64_t>{40} : std::vector<uint64_t>{20, 30, 40};
    const TraceModel& rest = model;
    for (const auto& [side, starts] : {std::pair{&slice, before}, std::pair{&rest, after}}) {
      REQUIRE(side->api_calls.size() == starts.size());
      REQUIRE(side->device_activities.size() == starts.size());
      for (size_t i = 0; i < starts.size(); ++i) {
        const std::string time = std::to_string(starts[i]);
        CHECK(side->api_calls[i].start_ns == starts[i]);
        CHECK(side->names.Get(side->api_calls[i].name) == "call" + time);
        CHECK(side->device_activities[i].api_call == static_cast<int32_t>(i));
        CHECK(side->names.Get(side->device_activities[i].name) == "kernel" + time);
      }
    }
  }
}

// A slice holds its own names and those of the two steps held after its cut, however many
// slices came before it: every step is named apart ("ProfileStep#N"), so a pool carried
// from cut to cut grew with the steps read so far, and copying it into each small slice
// (and interning it again in the consumer) cost time quadratic in the file's steps.
TEST_CASE("a slice holds its own names, whatever came before it") {
  const std::string path = TempPath("sliced_names.pb");
  REQUIRE(WriteSyntheticTrace(path, 300000) > 0);  // 60 steps; chunks of 65536 events
  size_t slices = 0;
  const absl::Status status = ReadTraceFileInSlices(path, {0, 1}, nullptr, [&](TraceModel slice) {
    ++slices;
    size_t steps = 0, step_names = 0;
    for (const HostRange& range : slice.ranges) steps += range.type == RangeType::kProfileStep;
    for (NameId id = 0; id < slice.names.size(); ++id)
      step_names += absl::StartsWith(slice.names.Get(id), "ProfileStep#");
    CHECK(step_names >= steps);
    CHECK(step_names <= steps + 2);
  });
  REQUIRE(status.ok());
  CHECK(slices >= 3);
}

// The slice's count of device records without a call is its own, counted in the split: a
// record after the cut or one with its call is not counted, and the model's quality (here
// a count of 9) stays with the model.
TEST_CASE("a slice counts its own device records without a call, by kind") {
  TraceModel model;
  ApiCall call;
  call.start_ns = 10;
  model.api_calls = {call};
  DeviceActivity linked;
  linked.start_ns = 50;  // after the cut, with its call before it
  linked.api_call = 0;
  DeviceActivity kernel;  // no call: 20 and 60 by their own times
  kernel.start_ns = 20;
  DeviceActivity copy = kernel;
  copy.kind = DeviceKind::kMemcpy;
  DeviceActivity late_copy = copy;
  late_copy.start_ns = 60;
  model.device_activities = {linked, kernel, copy, copy, late_copy};
  model.quality.unmatched_device_records = {{"Kernel", 9}};

  const TraceModel slice = TakeSliceBefore(40, &model);
  REQUIRE(slice.device_activities.size() == 4);
  CHECK(slice.quality.unmatched_device_records ==
        std::map<std::string, uint64_t>{{"Kernel", 1}, {"Memcpy", 2}});
  CHECK(model.device_activities.size() == 1);
  CHECK(model.quality.unmatched_device_records.at("Kernel") == 9);
}

}  // namespace
}  // namespace prof::analyzer
