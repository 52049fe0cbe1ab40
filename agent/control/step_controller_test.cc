// Step boundaries never wait for the writer: with the writer thread stuck in CUPTI's
// subscription (a device source whose Enable blocks), every Step() returns promptly, the
// READY step lasts until the subscription is done, and the first recorded step still has
// all its device activity (simulated CUPTI, real window file). A writer that never
// finishes subscribing delays the window by a bounded time only.
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
#include "sim/sim_ext.h"

namespace prof {
namespace {

using testing::HookedLaunch;

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
  void Flush(bool forced) override { real_->Flush(forced); }
  void Drain(WindowRouter& router) override { real_->Drain(router); }
  trace::ClockAnchor Anchor(const char* reason) override { return real_->Anchor(reason); }

  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    gate_open_ = true;
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
};

std::string OutputDir(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir && *dir ? dir : "/tmp") + "/" + name;
  std::string command = "rm -rf '" + path + "' && mkdir -p '" + path + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  return path;
}

// One launch made the way the launch hook makes it: the API call is recorded while a
// window records, with the correlation id CUPTI's callback gave it.
void Launch(const void* kernel) {
  const uint64_t start = MonotonicNs();
  HookedLaunch(kernel, dim3(1), dim3(32), 0, nullptr);
  if (Recording()) {
    ApiArguments arguments;
    arguments.function = kernel;
    RecordApiCall(kApi_cudaLaunchKernel, start, MonotonicNs(), 0, arguments);
  }
}

struct Rig {
  explicit Rig(const std::string& name, const char* schedule_text,
               uint64_t ready_limit_ns = 2000000000ull) {
    config = testing::TestConfig(testing::SimCuptiPath());
    config.output_dir = OutputDir(name);
    config.worker_name = name;
    auto source = std::make_unique<GatedSource>(MakeCuptiSource(config));
    gate = source.get();
    trace::FileHeader header;
    header.set_worker_name(name);
    writer = std::make_unique<TraceWriter>(config, header, std::move(source));
    schedule = *ParseSchedule(schedule_text);
    steps = std::make_unique<StepController>(schedule, writer.get(), MonotonicNs(), 0, ready_limit_ns);
    steps->Begin();
  }
  // One step: the program's work (one launch of `kernel`), then the step boundary, whose
  // cost on this thread is returned.
  uint64_t Step(const void* kernel) {
    Launch(kernel);
    const uint64_t start = MonotonicNs();
    steps->Step(32);
    return MonotonicNs() - start;
  }
  ~Rig() {
    gate->Open();
    steps->End();
    writer->Shutdown(5000000000ull);
    SetRecording(false);
  }

  Config config;
  Schedule schedule;
  GatedSource* gate = nullptr;
  std::unique_ptr<TraceWriter> writer;
  std::unique_ptr<StepController> steps;
};

constexpr uint64_t kPromptNs = 50000000;  // 50 ms: far below a blocked writer, and any wait

TEST_CASE("a writer stuck subscribing CUPTI: steps return at once, READY lasts until it is done") {
  const void* ready_kernel = simRegisterKernel("ready_kernel");
  const void* first_kernel = simRegisterKernel("first_recorded_kernel");
  const void* second_kernel = simRegisterKernel("second_recorded_kernel");
  std::string path;
  {
    Rig rig("stuck_writer", "closed=1,ready=1,record=2,repeat=1");
    CHECK(rig.Step(ready_kernel) < kPromptNs);  // step 0 (CLOSED) ends: READY asks for CUPTI
    for (int i = 0; i < 20 && !rig.gate->entered(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(rig.gate->entered());  // the writer thread is now blocked in Enable
    uint64_t slowest = 0;
    for (int i = 0; i < 10; ++i) {
      slowest = std::max(slowest, rig.Step(ready_kernel));
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CHECK(slowest < kPromptNs);
    CHECK_FALSE(Recording());  // still READY: the window waits for the device
    CHECK(rig.steps->current_step() == 11);
    rig.gate->Open();
    for (int i = 0; i < 500 && !rig.writer->DeviceCommandDone(1); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    REQUIRE(rig.writer->DeviceCommandDone(1));
    CHECK(rig.Step(ready_kernel) < kPromptNs);  // step 11 ends: the window opens
    CHECK(Recording());
    for (int i = 0; i < 3; ++i) Launch(first_kernel);
    CHECK(rig.Step(first_kernel) < kPromptNs);  // step 12, the first recorded, ends
    for (int i = 0; i < 1; ++i) Launch(second_kernel);
    CHECK(rig.Step(second_kernel) < kPromptNs);  // step 13, the last recorded, ends
    CHECK_FALSE(Recording());
    path = rig.writer->PathOf(0);
  }
  auto trace = testing::ReadTrace(path);
  REQUIRE(trace->read_ok);
  std::map<std::string, int> kernels;
  for (const KernelEvent& kernel : trace->kernels) ++kernels[trace->KernelName(kernel)];
  // Every launch of the two recorded steps, none of the (long) READY step's.
  CHECK(kernels == std::map<std::string, int>{{"first_recorded_kernel", 4}, {"second_recorded_kernel", 2}});
  CHECK(trace->losses.empty());
}

TEST_CASE("a writer that never finishes subscribing delays the window by the bound only") {
  const void* kernel = simRegisterKernel("bounded_kernel");
  const uint64_t limit_ns = 100000000;  // 100 ms
  Rig rig("never_subscribes", "closed=1,ready=1,record=3,repeat=1", limit_ns);
  const uint64_t ready_since = MonotonicNs();
  uint64_t slowest = rig.Step(kernel);  // READY
  int steps = 1;
  while (!Recording() && MonotonicNs() - ready_since < 10 * limit_ns) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    slowest = std::max(slowest, rig.Step(kernel));
    ++steps;
  }
  CHECK(Recording());
  CHECK(MonotonicNs() - ready_since >= limit_ns);
  CHECK(MonotonicNs() - ready_since < 5 * limit_ns);
  // The window records its 3 steps, still with the writer blocked, and closes.
  for (int i = 0; i < 3; ++i) slowest = std::max(slowest, rig.Step(kernel));
  CHECK_FALSE(Recording());
  CHECK(slowest < kPromptNs);
  CHECK(rig.steps->current_step() == steps + 3);
}

}  // namespace
}  // namespace prof
