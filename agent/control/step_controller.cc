#include "agent/control/step_controller.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "agent/record/clock.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/flight_ring.h"
#include "agent/record/recorder.h"
#include "agent/record/step_losses.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

// prof_start, prof_set_state and the boundary into READY wait at most this for CUPTI.
constexpr uint64_t kDeviceWaitNs = 2000000000;

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
  // The writer thread also polls for on-demand triggers (control/trigger.h): it runs from
  // the session's start even when no window is open (when that poll is on).
  writer_->StartThreadForPoll();
}

void StepController::Step(int64_t samples) { StepTo(samples, -1); }

int64_t StepController::StepTo(int64_t samples, int next_state) {
  Start();
  EnableDeviceBeforeBoundary(next_state);
  // In flight from before the boundary's timestamp until its commands are queued, so the
  // writer never drains a record of a window it has not been told of (drain_horizon.h).
  // Start() needs none: the first command of all starts the writer thread.
  DrainHorizon::Producing producing(writer_->drain_horizon());
  const uint64_t now = MonotonicNsOrdered();  // after the increment (drain_horizon.h)
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_) return -1;
  steps_seen_.fetch_add(1, std::memory_order_relaxed);
  FlightStep(step_, step_start_ns_, now);  // every boundary, whatever the state (flight_ring.h)
  if (window_open_) RecordStep(step_, samples, step_start_ns_, now);
  const StepState previous = state_;
  const bool taking_over = TakesOver(next_state);
  ++step_;
  SetCurrentStep(step_);  // records lost from now on count in this step (step_losses.h)
  state_ = NextState(next_state);
  step_start_ns_ = now;
  // The program's first state ends the schedule's window at this boundary (as its last
  // step would), so the program's own window starts here.
  Transition(taking_over && window_open_ ? StepState::kRecordAndReturn : previous, state_, now);
  return window_open_ ? open_index_ : -1;
}

// Called with mutex_ held, step_ being the new step. The program's state (SetState,
// StepTo) replaces the schedule for good; after it, a step with no state given keeps the
// current one, but the last step of a window is followed by CLOSED.
StepState StepController::NextState(int next_state) {
  if (TakesOver(next_state)) external_states_ = true;
  return StateAfterBoundary(step_, next_state);
}

// Called with mutex_ held: the state step `step` gets from a boundary given `next_state`
// (NextState without its side effect).
StepState StepController::StateAfterBoundary(int64_t step, int next_state) const {
  if (next_state >= 0 && next_state <= static_cast<int>(StepState::kRecordAndReturn)) {
    return static_cast<StepState>(next_state);
  }
  if (!external_states_) return schedule_.StateOf(step);
  return state_ == StepState::kRecordAndReturn ? StepState::kClosed : state_;
}

// Enabling device activity takes CUPTI 12-15 ms on a real GPU (it instruments the loaded
// kernels), longer than many training steps. So the boundary into a step that needs it
// (READY, or RECORD with no READY before it) turns it on and waits for it first (bounded,
// without the mutex), as torch.profiler's warm-up absorbs the same cost: the wait falls in
// the step that ends here, which is not recorded, and the first recorded step is whole. A
// boundary that finds it on already (every later step of the window) waits for nothing,
// and so does one that finds the writer still busy with an earlier device command (a
// subscription stuck past the bound): a stuck writer costs the program one bounded wait,
// not one per window.
void StepController::EnableDeviceBeforeBoundary(int next_state) {
  uint64_t ticket = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ended_ || !started_) return;
    const StepState next = StateAfterBoundary(step_ + 1, next_state);
    if (next != StepState::kReady && !IsRecording(next)) return;
    const uint64_t earlier = device_ticket_;
    if (earlier != 0 && !writer_->DeviceCommandDone(earlier)) return;
    if (!device_enabled_) {
      device_enabled_ = true;
      RequestDeviceActivity(/*before_writer_thread=*/false);
    }
    ticket = device_ticket_ != earlier ? device_ticket_ : 0;
  }
  if (ticket != 0) WaitForDevice(ticket);
}

// Called with mutex_ held: whether `next_state` is the program's first state.
bool StepController::TakesOver(int next_state) const {
  return !external_states_ && next_state >= 0 &&
         next_state <= static_cast<int>(StepState::kRecordAndReturn);
}

int64_t StepController::SetState(int state) {
  uint64_t wait_for_ticket = 0;
  const int64_t index = ApplyState(state, &wait_for_ticket);
  if (wait_for_ticket) WaitForDevice(wait_for_ticket);  // as prof_start does
  return index;
}

int64_t StepController::ApplyState(int state, uint64_t* wait_for_ticket) {
  Start();
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_) return -1;
  StepState previous = state_;
  if (TakesOver(state) && window_open_) {  // the schedule's window ends here
    CloseWindowNow(now);
    previous = StepState::kClosed;
  }
  state_ = NextState(state);
  // A window that is open stays open through RECORD -> RECORD_AND_RETURN; anything else
  // that does not record closes it, as at a step boundary.
  const uint64_t ticket_before = device_ticket_;
  Transition(previous == StepState::kRecordAndReturn ? StepState::kRecord : previous, state_, now);
  if (device_ticket_ != ticket_before) *wait_for_ticket = device_ticket_;
  return window_open_ ? open_index_ : -1;
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

// Called with mutex_ held. The schedule's windows, then the demand windows (OpenOnDemand).
void StepController::Transition(StepState previous, StepState next, uint64_t now_ns) {
  const bool schedule_records = IsRecording(next);
  const bool schedule_window_ends = !schedule_records || previous == StepState::kRecordAndReturn;
  if (schedule_skipped_ && schedule_window_ends) schedule_skipped_ = false;
  if (demand_window_ && schedule_records) schedule_skipped_ = true;  // overlapped: skipped
  if (demand_window_) {
    if (demand_end_step_ >= 0 && step_ >= demand_end_step_) CloseWindowNow(now_ns);
  } else if (window_open_ && schedule_window_ends) {
    CloseWindowNow(now_ns);
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
  if (!window_open_ && demand_next_steps_ > 0 && !ending_) {
    OpenDemandWindow(now_ns, step_ + demand_next_steps_, 0, schema::WINDOW_ORIGIN_TRIGGER);
  }
  demand_next_steps_ = 0;
  if (!window_open_ && schedule_records && !schedule_skipped_) OpenWindow(now_ns);
  UpdateDevice();
}

// Called with mutex_ held. Device activity: subscribed from READY (or a window without one,
// or a demand window due at the next boundary) until nothing is open.
void StepController::UpdateDevice() {
  const bool want = window_open_ || state_ == StepState::kReady || demand_next_steps_ > 0;
  if (want == device_enabled_) return;
  device_enabled_ = want;
  if (started_ && want) RequestDeviceActivity(/*now=*/false);
  if (started_ && !want) writer_->SetDeviceEnabled(false);
}

// Called with mutex_ held. A window not yet handed to the writer (before Start) is dropped.
void StepController::CloseWindowNow(uint64_t now_ns) {
  SetRecording(false);
  if (started_) {
    writer_->CloseWindow(now_ns);
  } else {
    pending_open_ = false;
  }
  window_open_ = false;
  demand_window_ = false;
  demand_end_step_ = -1;
  demand_end_ns_ = 0;
}

// Called with mutex_ held, no window open.
int64_t StepController::OpenDemandWindow(uint64_t now_ns, int64_t end_step, uint64_t end_ns,
                                         int32_t origin) {
  demand_window_ = true;  // before OpenWindow: NextWindowSpec reads these
  demand_origin_ = origin;
  demand_end_step_ = end_step;
  demand_end_ns_ = end_ns;
  OpenWindow(now_ns);
  return open_index_;
}

int64_t StepController::OpenOnDemand(int64_t end_step, uint64_t end_ns, bool only_if_none_open,
                                     int32_t origin) {
  uint64_t wait_for_ticket = 0;
  const int64_t index = OpenAndSubscribe(end_step, end_ns, only_if_none_open, origin,
                                           &wait_for_ticket);
  if (wait_for_ticket) WaitForDevice(wait_for_ticket);
  return index;
}

// prof_start and prof_set_state are the program's explicit calls (torch.profiler's start(),
// MindSpore's start_profile), not step boundaries: when they ask the writer to subscribe
// device activity, they wait for it (bounded), so the kernels the program launches after
// they return are recorded. Never with the mutex held.
void StepController::WaitForDevice(uint64_t ticket) {
  const uint64_t deadline = MonotonicNs() + kDeviceWaitNs;
  while (!writer_->DeviceCommandDone(ticket) && MonotonicNs() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

int64_t StepController::OpenAndSubscribe(int64_t end_step, uint64_t end_ns,
                                           bool only_if_none_open, int32_t origin,
                                           uint64_t* wait_for_ticket) {
  uint64_t& wait_for_ticket_ref = *wait_for_ticket;
  Start();
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_ || (only_if_none_open && window_open_)) return -1;
  if (demand_window_) return open_index_;
  if (window_open_) CloseWindowNow(now);  // the schedule's window ends here
  if (IsRecording(state_)) schedule_skipped_ = true;
  const uint64_t ticket_before = device_ticket_;
  const int64_t index = OpenDemandWindow(now, end_step, end_ns, origin);
  UpdateDevice();
  if (origin == schema::WINDOW_ORIGIN_API && device_ticket_ != ticket_before) {
    wait_for_ticket_ref = device_ticket_;
  }
  return index;
}

int64_t StepController::CloseOnDemand() {
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  demand_next_steps_ = 0;
  if (ended_ || !window_open_) {
    UpdateDevice();
    return -1;
  }
  const int64_t index = open_index_;
  if (!demand_window_) schedule_skipped_ = true;  // the rest of the schedule's window
  CloseWindowNow(now);
  UpdateDevice();
  return index;
}

bool StepController::OpenAtNextStep(int64_t steps) {
  Start();
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_ || window_open_ || steps <= 0) return false;
  demand_next_steps_ = steps;
  UpdateDevice();  // subscribed now, as for a READY step
  return true;
}

void StepController::Tick(uint64_t now_ns) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!demand_window_ || demand_end_ns_ == 0 || now_ns < demand_end_ns_) return;
  }
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!demand_window_ || demand_end_ns_ == 0 || now < demand_end_ns_) return;
  CloseWindowNow(now);
  UpdateDevice();
}

bool StepController::window_open() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return window_open_;
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
  device_ticket_ = writer_->SetDeviceEnabled(true);
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
  if (demand_window_ || external_states_) {  // from now to its end step, if known (0: not)
    spec.origin = demand_window_ ? demand_origin_ : schema::WINDOW_ORIGIN_PROGRAM;
    spec.first_step = step_;
    spec.end_step = demand_end_step_ > 0 ? demand_end_step_ : 0;
  } else if (steps_per_file_ > 0) {  // this file's share of the window
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
  open_index_ = spec.index;
  if (started_) {
    writer_->OpenWindow(spec);
  } else {
    pending_open_ = true;
    pending_spec_ = spec;
  }
  SetRecording(true);
}

}  // namespace prof
