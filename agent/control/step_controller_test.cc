// Step boundaries and the writer: the boundary into READY turns device activity on and
// waits for it (at most 2 s), so the first recorded step has all its device activity
// (simulated CUPTI, real window files); with the writer thread stuck in CUPTI's
// subscription (a device source whose Enable blocks), that one boundary waits the bound and
// every other Step() returns promptly, the windows opening and closing exactly on schedule.
// A window that opens before the subscription says in its file when device activity began.
#include "agent/control/step_controller.h"

#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "agent/cupti/cupti_sim_helpers.h"
#include "agent/cupti/cupti_source.h"
#include "agent/cupti/cupti_test_support.h"
#include "agent/record/api_ids.h"
#include "agent/record/clock.h"
#include "agent/record/recorder.h"
#include "agent/tests/trace_summary.h"
#include "proto/trace_file_reader.h"
#include "sim/sim_ext.h"

namespace prof {
namespace {

// The simulated CUPTI behind a gate: Enable waits (on the writer thread) until the test
// opens the gate, as a slow cuptiSubscribe or dlopen would.
class GatedSource : public DeviceActivitySource {
 public:
  explicit GatedSource(std::unique_ptr<DeviceActivitySource> real) : real_(std::move(real)) {}
  bool Enable() override {
    std::unique_lock<std::mutex> lock(mutex_);
    entered_ = true;
    open_.wait(lock, [this] { return gate_open_; });
    lock.unlock();
    return real_->Enable();
  }
  void Disable() override { real_->Disable(); }
  // With HoldNextForcedFlush(), the next forced flush (a window's end, unsubscribing) waits
  // for Open() too: the writer is then late to unsubscribe.
  void Flush(bool forced) override {
    if (forced) {
      std::unique_lock<std::mutex> lock(mutex_);
      if (hold_flush_) {
        hold_flush_ = false;
        open_.wait(lock, [this] { return flush_released_; });
      }
    }
    real_->Flush(forced);
  }
  void HoldNextForcedFlush() {
    std::lock_guard<std::mutex> lock(mutex_);
    hold_flush_ = true;
    flush_released_ = false;
  }
  void Drain(WindowRouter& router) override { real_->Drain(router); }
  ClockAnchorValue Anchor(const char* reason) override { return real_->Anchor(reason); }

  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    gate_open_ = true;
    flush_released_ = true;
    open_.notify_all();
  }
  bool entered() {
    std::lock_guard<std::mutex> lock(mutex_);
    return entered_;
  }

 private:
  std::unique_ptr<DeviceActivitySource> real_;
  std::mutex mutex_;
  std::condition_variable open_;
  bool gate_open_ = false;
  bool entered_ = false;
  bool hold_flush_ = false;
  bool flush_released_ = true;
};

// One launch made the way the launch hook makes it: the API call is recorded while a
// window records, with the correlation id CUPTI's callback gave it.
void Launch(const void* kernel) {
  const uint64_t start = MonotonicNs();
  AwaitCorrelationId();
  REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, nullptr) == cudaSuccess);
  if (Recording()) {
    ApiArguments arguments;
    arguments.function = kernel;
    RecordApiCall(kApi_cudaLaunchKernel, start, MonotonicNs(), 0, arguments);
  } else {
    TakeCorrelationId();
  }
}

struct Rig {
  explicit Rig(const std::string& name, const char* schedule_text) {
    config = testing::TestConfig(testing::SimCuptiPath());
    config.output_dir = testing::FreshOutputFolder(name);
    REQUIRE_FALSE(config.output_dir.empty());
    config.worker_name = name;
    auto source = std::make_unique<GatedSource>(MakeCuptiSource(config));
    gate = source.get();
    FileHeaderValue header;
    header.worker_name = name;
    writer = std::make_unique<TraceWriter>(config, header, std::move(source));
    steps = std::make_unique<StepController>(*ParseSchedule(schedule_text).schedule, writer.get(),
                                             MonotonicNs());
    steps->Begin();
  }
  // The step boundary; returns its cost on this thread.
  uint64_t Step() {
    const uint64_t start = MonotonicNs();
    steps->Step(32);
    return MonotonicNs() - start;
  }
  void WaitUntilWriterEnters() {
    for (int i = 0; i < 200 && !gate->entered(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(gate->entered());  // the writer thread is now blocked in Enable
  }
  void Finish() {
    gate->Open();
    steps->End();
    REQUIRE(writer->Shutdown(5000000000ull));
    SetRecording(false);
  }

  Config config;
  GatedSource* gate = nullptr;
  std::unique_ptr<TraceWriter> writer;
  std::unique_ptr<StepController> steps;
};

constexpr uint64_t kPromptNs = 20000000;             // 20 ms: far below a blocked writer's seconds
constexpr uint64_t kDeviceWaitBoundNs = 2000000000;  // step_controller.cc

// The boundary into READY with a stuck writer: it waited the bound, and no more.
void CheckWaitedTheBound(uint64_t step_ns) {
  CHECK(step_ns >= kDeviceWaitBoundNs);
  CHECK(step_ns < kDeviceWaitBoundNs + 1000000000);
}

// The device kernels of a window file by name, and whether it holds the anchor taken when
// device activity was subscribed after the window opened.
std::map<std::string, int> KernelsOf(const std::string& path, bool* late_anchor) {
  auto trace = testing::ReadTrace(path);
  REQUIRE(trace->read_ok);
  CHECK(trace->losses.empty());
  std::map<std::string, int> kernels;
  for (const KernelEvent& kernel : trace->kernels) ++kernels[trace->KernelName(kernel)];
  auto reader = TraceFileReader::Open(path);
  REQUIRE(reader.ok());
  *late_anchor = false;
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    for (const trace::ClockAnchor& anchor : chunk.clock_anchors()) {
      if (anchor.reason() == "device activity subscribed") *late_anchor = true;
    }
  }
  return kernels;
}

TEST_CASE("a writer stuck subscribing CUPTI: one bounded wait, windows keep the schedule") {
  Rig rig("stuck_writer", "closed=1,ready=1,record=2,repeat=2");
  CheckWaitedTheBound(rig.Step());  // step 0 (CLOSED) ends: READY asks for CUPTI
  rig.WaitUntilWriterEnters();
  uint64_t slowest = 0;
  // The writer stays blocked from here on; the schedule goes on without it.
  const bool expected_recording[] = {true, true, false, false, true, true, false, false};
  for (int i = 0; i < 8; ++i) {
    slowest = std::max(slowest, rig.Step());  // step i + 1 ends
    INFO("step " << i + 2);
    CHECK(Recording() == expected_recording[i]);
  }
  CHECK(slowest < kPromptNs);
  CHECK(rig.steps->current_step() == 9);
  rig.Finish();
}

TEST_CASE("more boundaries than the writer's ring holds while it is stuck: all kept, in order") {
  // After step 0, every second step opens a window and every other closes one: 150
  // windows are 300 commands, far over the ring's 64, queued while the writer waits.
  constexpr int kWindows = 150;
  // (repeat: the schedule ends CLOSED, so CUPTI is unsubscribed for the next test.)
  Rig rig("overflow", "skip_first=1,ready=1,record=1,repeat=150");
  CheckWaitedTheBound(rig.Step());
  rig.WaitUntilWriterEnters();
  uint64_t slowest = 0;
  for (int i = 0; i < 2 * kWindows; ++i) slowest = std::max(slowest, rig.Step());
  CHECK_FALSE(Recording());
  CHECK(slowest < kPromptNs);
  std::vector<std::string> paths;
  for (int i = 0; i < kWindows; ++i) paths.push_back(rig.writer->PathOf(i));
  rig.Finish();
  for (int i = 0; i < kWindows; ++i) {
    INFO("window " << i);
    auto reader = TraceFileReader::Open(paths[i]);
    REQUIRE(reader.ok());
    trace::Chunk chunk;
    while ((*reader)->Next(&chunk)) {
    }
    CHECK((*reader)->report().complete());
    CHECK((*reader)->header().window_index() == static_cast<uint32_t>(i));
    CHECK((*reader)->header().window_first_step() == 2 * i + 2);
    CHECK((*reader)->header().window_end_step() == 2 * i + 3);
  }
}

TEST_CASE("a READY step of one launch: the first recorded step has all its device activity") {
  const void* ready_kernel = simRegisterKernel("ready_kernel");
  const void* first_kernel = simRegisterKernel("first_recorded_kernel");
  Rig rig("ready_in_time", "closed=1,ready=1,record=1,repeat=1");
  rig.gate->Open();  // an ordinary writer
  rig.Step();        // READY begins once the writer has subscribed
  CHECK(rig.writer->DeviceCommandDone(1));
  Launch(ready_kernel);
  CHECK(rig.Step() < kPromptNs);  // the window opens
  CHECK(Recording());
  for (int i = 0; i < 3; ++i) Launch(first_kernel);
  CHECK(rig.Step() < kPromptNs);  // the window closes
  CHECK_FALSE(Recording());
  const std::string path = rig.writer->PathOf(0);
  rig.Finish();
  bool late_anchor = true;
  const std::map<std::string, int> kernels = KernelsOf(path, &late_anchor);
  for (const auto& [name, count] : kernels) UNSCOPED_INFO(name << ": " << count);
  CHECK(kernels == std::map<std::string, int>{{"first_recorded_kernel", 3}});
  CHECK_FALSE(late_anchor);
}

TEST_CASE(
    "a window opened before the subscription: device activity from then on, and the file says "
    "when") {
  const void* early_kernel = simRegisterKernel("before_subscription_kernel");
  const void* late_kernel = simRegisterKernel("after_subscription_kernel");
  Rig rig("late_subscription", "closed=1,ready=1,record=2,repeat=1");
  CheckWaitedTheBound(rig.Step());  // READY, the writer stuck past the bound
  rig.WaitUntilWriterEnters();
  CHECK(rig.Step() < kPromptNs);  // the window opens on schedule, CUPTI not yet subscribed
  CHECK(Recording());
  for (int i = 0; i < 2; ++i) Launch(early_kernel);
  rig.gate->Open();
  for (int i = 0; i < 500 && !rig.writer->DeviceCommandDone(1); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(rig.writer->DeviceCommandDone(1));
  for (int i = 0; i < 3; ++i) Launch(late_kernel);
  CHECK(rig.Step() < kPromptNs);
  Launch(late_kernel);
  // The kernels are done before the window closes: device records of work still running
  // when CUPTI is unsubscribed are CUPTI's drops (counted), not this test's subject.
  cudaDeviceSynchronize();
  CHECK(rig.Step() < kPromptNs);  // the window closes
  const std::string path = rig.writer->PathOf(0);
  rig.Finish();
  bool late_anchor = false;
  CHECK(KernelsOf(path, &late_anchor) ==
        std::map<std::string, int>{{"after_subscription_kernel", 4}});
  CHECK(late_anchor);
}

TEST_CASE("launches after a window closed, before the writer unsubscribed, stay out of it") {
  const void* inside = simRegisterKernel("inside_window_kernel");
  const void* after = simRegisterKernel("after_window_kernel");
  Rig rig("late_unsubscribe", "closed=1,ready=1,record=1,repeat=1");
  rig.gate->Open();
  rig.Step();  // READY
  for (int i = 0; i < 500 && !rig.writer->DeviceCommandDone(1); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(rig.writer->DeviceCommandDone(1));
  rig.Step();  // the window opens
  for (int i = 0; i < 2; ++i) Launch(inside);
  rig.gate->HoldNextForcedFlush();
  rig.Step();  // the window closes; the writer is held before it unsubscribes
  for (int i = 0; i < 3; ++i) Launch(after);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const std::string path = rig.writer->PathOf(0);
  rig.Finish();
  bool late_anchor = true;
  const std::map<std::string, int> kernels = KernelsOf(path, &late_anchor);
  for (const auto& [name, count] : kernels) UNSCOPED_INFO(name << ": " << count);
  CHECK(kernels == std::map<std::string, int>{{"inside_window_kernel", 2}});
}

// prof_step_stamp: work done between the stamp and the boundary (the Python helper's read
// of a window's operators) is not the step's. The step ends at the stamp; a range recorded
// in that time with times before the stamp is the window's. (What another thread records
// in that time, with later times, stays in the window's file too: the writer routes records
// by the windows' open times, window_set.cc, and the recording flag is on until the
// boundary; the helper's hand-over is a few tens of ms, once a window.)
TEST_CASE("a boundary stamped earlier ends its step at the stamp") {
  const void* inside = simRegisterKernel("stamped_inside_kernel");
  Rig rig("stamped_boundary", "closed=1,ready=1,record=1,repeat=1");
  rig.gate->Open();
  rig.Step();  // READY
  for (int i = 0; i < 500 && !rig.writer->DeviceCommandDone(1); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(rig.writer->DeviceCommandDone(1));
  rig.Step();  // the window opens
  const uint64_t opened = MonotonicNs();
  Launch(inside);
  const uint64_t operator_start = MonotonicNs();
  const uint64_t operator_end = MonotonicNs() + 1000;
  rig.steps->StampNextBoundary();
  const uint64_t stamped = MonotonicNs();
  rig.steps->StampNextBoundary();  // a second stamp keeps the first
  // The hand-over: longer than the step itself, and a record of the ending step made now.
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  RecordOperatorRangeDetail("stamped_operator", nullptr, nullptr, nullptr, operator_start,
                            operator_end);
  CHECK(rig.Step() < kPromptNs);  // the window closes, at the stamp
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  rig.Finish();
  const testing::TraceSummary summary = testing::SummarizeFolder(rig.config.output_dir);
  REQUIRE(summary.step_spans.size() == 1);
  const uint64_t duration = summary.step_spans[0].second - summary.step_spans[0].first;
  UNSCOPED_INFO("step " << duration << " ns; from the open to the stamp " << stamped - opened);
  CHECK(duration <= stamped - opened + 2000000);  // not the 60 ms after it
  CHECK(summary.ranges == std::map<std::string, uint64_t>{{"stamped_operator", 1}});
  CHECK(summary.kernels == std::map<std::string, uint64_t>{{"stamped_inside_kernel", 1}});
}

}  // namespace
}  // namespace prof
