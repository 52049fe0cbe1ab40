// The timeline walk visits every item of a window once, in its documented order, pairs
// memory across a process's windows (and only within one process), and leaves out a free of
// nothing live. Each expected line is written by hand from the window built here.
#include "analyzer/render/timeline_walk.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"

namespace prof::analyzer {
namespace {

// Logs one line per callback.
class RecordingSink : public TimelineSink {
 public:
  void OnBeginWindow(const TraceModel& window, size_t process_index) override {
    model_ = &window;
    log.push_back(absl::StrCat("begin p", process_index));
  }
  void OnContinueWindow(const TraceModel& slice, size_t process_index) override {
    model_ = &slice;
    log.push_back(absl::StrCat("continue p", process_index));
  }
  void OnRecordingWindow(uint64_t start_ns, uint64_t end_ns, const std::string& label) override {
    log.push_back(absl::StrCat("window ", start_ns, "-", end_ns, " ", label));
  }
  void OnHostRange(const HostRange& range) override {
    log.push_back(absl::StrCat("range ", model_->names.Get(range.name)));
  }
  void OnNcclCall(const NcclCall& call) override {
    log.push_back(absl::StrCat("nccl ", call.start_ns));
  }
  void OnApiCall(const ApiCall& call, bool launched) override {
    log.push_back(absl::StrCat("api ", model_->names.Get(call.name), launched ? " launched" : ""));
  }
  void OnDeviceActivity(const DeviceActivity& activity) override {
    log.push_back(absl::StrCat("device ", model_->names.Get(activity.name)));
  }
  void OnEndSlices() override { log.push_back("end slices"); }
  void OnMemoryChange(const MemoryRecord& record, const MemoryChange& change,
                      const LiveMemory& live) override {
    log.push_back(absl::StrCat(record.allocate ? "allocate " : "free ", record.time_ns, " live ",
                               live.LiveBytes(change.place)));
  }
  void OnSampleCounter(const MemorySample& sample, const SampleCounter& counter) override {
    log.push_back(absl::StrCat("sample ", sample.time_ns, " ", counter.track, " ", counter.bytes));
  }
  void OnEndWindow() override { log.push_back("end window"); }

  std::vector<std::string> log;

 private:
  const TraceModel* model_ = nullptr;
};

MemoryRecord Memory(uint64_t time_ns, uint64_t address, bool allocate, uint64_t bytes) {
  MemoryRecord record;
  record.time_ns = time_ns;
  record.address = address;
  record.allocate = allocate;
  record.bytes = bytes;
  record.device = 0;
  return record;
}

// One of everything, with the model's vectors out of time order where the walk sorts.
TraceModel FirstWindow() {
  TraceModel window;
  trace::FileHeader header;
  header.set_window_index(3);
  window.headers.push_back(header);
  HostRange step;
  step.name = window.names.Intern("step");
  step.start_ns = 100;
  step.end_ns = 900;
  HostRange op;
  op.name = window.names.Intern("op");
  op.start_ns = 150;
  op.end_ns = 200;
  window.ranges = {step, op};
  NcclCall nccl;
  nccl.start_ns = 300;
  nccl.end_ns = 400;
  window.nccl_calls = {nccl};
  ApiCall plain;
  plain.name = window.names.Intern("cudaMalloc");
  plain.start_ns = 160;
  plain.end_ns = 170;
  ApiCall launch = plain;
  launch.name = window.names.Intern("cudaLaunchKernel");
  window.api_calls = {plain, launch};
  DeviceActivity kernel;
  kernel.name = window.names.Intern("gemm");
  kernel.start_ns = 500;
  kernel.end_ns = 950;  // the latest end: the recording window's end
  kernel.api_call = 1;
  window.device_activities = {kernel};
  // A free of nothing live (left out), then 64 bytes allocated, kept live into the next window.
  window.memory = {Memory(250, 0xA, true, 64), Memory(240, 0xB, false, 0)};
  MemorySample late;
  late.time_ns = 800;
  late.rss = 7;
  MemorySample early;
  early.time_ns = 600;
  early.device = 0;
  early.allocated = 64;
  early.reserved = 128;
  window.memory_samples = {late, early};
  return window;
}

TEST_CASE("the walk visits each item once in the documented order", "[timeline_walk]") {
  RecordingSink sink;
  TimelineWalk walk(&sink);
  const TraceModel window = FirstWindow();
  walk.AddWindow(window, 0);
  CHECK(sink.log == std::vector<std::string>{
                        "begin p0",
                        "window 100-950 window 3",
                        "range step",
                        "range op",
                        "nccl 300",
                        "api cudaMalloc",
                        "api cudaLaunchKernel launched",
                        "device gemm",
                        "end slices",
                        "allocate 250 live 64",
                        "sample 600 GPU0 allocated 64",
                        "sample 600 GPU0 reserved 128",
                        "sample 800 Host RSS 7",
                        "end window",
                    });
}

TEST_CASE("the walk pairs memory across a process's windows, not across processes",
          "[timeline_walk]") {
  RecordingSink sink;
  TimelineWalk walk(&sink);
  walk.AddWindow(FirstWindow(), 0);
  TraceModel second;  // no events before its free: no recording window either
  second.memory = {Memory(1000, 0xA, false, 0)};
  sink.log.clear();
  walk.AddWindow(second, 1);  // another process: 0xA is not live there
  walk.AddWindow(second, 0);  // the same process: frees the 64 bytes of its first window
  CHECK(sink.log == std::vector<std::string>{
                        "begin p1",
                        "end slices",
                        "end window",
                        "begin p0",
                        "end slices",
                        "free 1000 live 0",
                        "end window",
                    });
}

TEST_CASE("a window in slices: the first has the whole span, the others continue it",
          "[timeline_walk]") {
  RecordingSink sink;
  TimelineWalk walk(&sink);
  const WindowPart first{false, 50, 5000};  // measured over every slice beforehand
  walk.AddWindow(FirstWindow(), 0, &first);
  TraceModel second;  // the next slice: it frees the first slice's 64 bytes
  second.headers = FirstWindow().headers;
  second.memory = {Memory(1000, 0xA, false, 0)};
  const WindowPart later{true, 50, 5000};
  walk.AddWindow(second, 0, &later);
  REQUIRE(sink.log.size() == 18);  // 14 for the first slice, as above
  CHECK(sink.log[0] == "begin p0");
  CHECK(sink.log[1] == "window 50-5000 window 3");
  CHECK(std::vector<std::string>(sink.log.begin() + 14, sink.log.end()) ==
        std::vector<std::string>{"continue p0", "end slices", "free 1000 live 0", "end window"});
}

}  // namespace
}  // namespace prof::analyzer
