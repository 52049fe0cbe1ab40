#include "agent/control/step_controller.h"

#include <algorithm>

#include "agent/record/clock.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/recorder.h"
#include "agent/record/step_losses.h"

namespace prof {
namespace {

bool IsRecording(StepState state) {
  return state == StepState::kRecord || state == StepState::kRecordAndReturn;
}

}  // namespace

StepController::StepController(const Schedule& schedule, TraceWriter* writer, uint64_t start_ns,
                               int64_t steps_per_file)
    : schedule_(schedule), writer_(writer), steps_per_file_(steps_per_file), step_start_ns_(start_ns) {}

int64_t StepController::current_step() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return step_;
}

void StepController::Begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = schedule_.StateOf(0);
  Transition(StepState::kClosed, state_, step_start_ns_);
}

void StepController::Start() {
  if (started_flag_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_) return;
  started_ = true;
  started_flag_.store(true, std::memory_order_release);
  // CUPTI first and synchronously (the program's first recorded call is waiting for us),
  // then the window, which starts the writer thread.
  if (device_enabled_) RequestDeviceActivity(/*now=*/true);
  if (pending_open_) writer_->OpenWindow(pending_spec_);
  pending_open_ = false;
}

void StepController::Step(int64_t samples) {
  Start();
  // In flight from before the boundary's timestamp until its commands are queued, so the
  // writer never drains a record of a window it has not been told of (drain_horizon.h).
  // Start() needs none: the first command of all starts the writer thread.
  DrainHorizon::Producing producing(writer_->drain_horizon());
  const uint64_t now = MonotonicNsOrdered();  // after the increment (drain_horizon.h)
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_) return;
  steps_seen_.fetch_add(1, std::memory_order_relaxed);
  if (IsRecording(state_)) {
    size_t size;
    if (Record* record = BeginRecord(RecordKind::kStep, nullptr, &size)) {
      record->start_ns = step_start_ns_;
      record->end_ns = now;
      record->args[0] = static_cast<uint64_t>(step_);
      record->args[1] = static_cast<uint64_t>(samples);
      CommitRecord(size);
    }
  }
  const StepState previous = state_;
  ++step_;
  SetCurrentStep(step_);  // records lost from now on count in this step (step_losses.h)
  state_ = schedule_.StateOf(step_);
  step_start_ns_ = now;
  Transition(previous, state_, now);
}

void StepController::End() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ending_ = true;  // the window closes below: no new file for the last step
  }
  // The step in progress at exit is recorded, ending now, and marked as such: it is the
  // program's teardown, which the Perf Summary does not count as an iteration.
  Step(kStepOpenAtExit);
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
  if (window_open_) {
    SetRecording(false);
    writer_->CloseWindow(MonotonicNsOrdered());
    window_open_ = false;
  }
}

// Called with mutex_ held.
void StepController::Transition(StepState previous, StepState next, uint64_t now_ns) {
  const bool is_recording = IsRecording(next);
  if (window_open_ && (!is_recording || previous == StepState::kRecordAndReturn)) {
    SetRecording(false);
    writer_->CloseWindow(now_ns);
    window_open_ = false;
  } else if (window_open_ && !ending_ && steps_per_file_ > 0 && step_ - file_first_step_ >= steps_per_file_) {
    // The window goes on in a new file. The recording flag stays on: hooks keep recording
    // across the boundary, and the writer routes each record by its start time. Before
    // Start() nothing was recorded, so the first file simply begins later.
    if (started_) {
      writer_->SplitWindow(now_ns, NextWindowSpec(now_ns));
    } else {
      file_first_step_ = step_;
    }
  }
  // Device activity: subscribed from READY (or a window without one) until CLOSED.
  const bool want_device = next != StepState::kClosed;
  if (want_device != device_enabled_) {
    device_enabled_ = want_device;
    if (started_ && want_device) RequestDeviceActivity(/*now=*/false);
    if (started_ && !want_device) writer_->SetDeviceEnabled(false);
  }
  if (is_recording && !window_open_) OpenWindow(now_ns);
}

// Called with mutex_ held. At the session's start (before the writer thread exists) this
// subscribes now, on the calling thread, if the process has loaded CUDA, else leaves it to
// the first intercepted CUDA call (cuda_presence.h). At a step boundary it only asks the
// writer, which makes the same check on its own thread (see the header on READY).
void StepController::RequestDeviceActivity(bool before_writer_thread) {
  if (before_writer_thread) {
    if (CudaLibraryLoaded()) {
      writer_->EnableDeviceNow();
    } else {
      internal::g_device_deferred.store(true);
    }
    return;
  }
  writer_->SetDeviceEnabled(true);
}

// Reached from the first intercepted CUDA call after a deferral: queues the subscription.
void StepController::EnableDeferredDevice() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (device_enabled_ && started_) RequestDeviceActivity(/*before_writer_thread=*/false);
}

// Called with mutex_ held. The next file's spec, starting at the current step.
WindowSpec StepController::NextWindowSpec(uint64_t now_ns) {
  WindowSpec spec;
  spec.index = next_window_++;
  spec.open_ns = now_ns;
  const int64_t cycle = schedule_.CycleOf(step_);
  spec.first_step = schedule_.record_everything ? 0 : schedule_.WindowFirstStep(cycle);
  spec.end_step = schedule_.record_everything ? 0 : schedule_.WindowEndStep(cycle);
  if (steps_per_file_ > 0) {  // this file's share of the window
    spec.first_step = step_;
    spec.end_step = schedule_.record_everything ? step_ + steps_per_file_
                                                : std::min(spec.end_step, step_ + steps_per_file_);
  }
  // spec.open_cpu is left for the writer to read when it opens the file (trace_writer.cc).
  file_first_step_ = step_;
  return spec;
}

// Called with mutex_ held.
void StepController::OpenWindow(uint64_t now_ns) {
  const WindowSpec spec = NextWindowSpec(now_ns);
  window_open_ = true;
  if (started_) {
    writer_->OpenWindow(spec);
  } else {
    pending_open_ = true;
    pending_spec_ = spec;
  }
  SetRecording(true);
}

}  // namespace prof
