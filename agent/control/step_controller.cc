#include "agent/control/step_controller.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "agent/record/clock.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/flight_ring.h"
#include "agent/record/recorder.h"
#include "agent/record/step_losses.h"

namespace prof {
namespace {

// prof_start, prof_set_state and the boundary into READY wait at most this for CUPTI.
constexpr uint64_t kDeviceWaitNs = 2000000000;

// StampNextBoundary's timestamp on this thread, 0: none taken.
thread_local uint64_t t_stamped_ns = 0;

WindowSpec SpecOf(const PlannedWindow& file) {
  WindowSpec spec;
  spec.index = file.index;
  spec.open_ns = file.open_ns;
  spec.first_step = file.first_step;
  spec.end_step = file.end_step;
  spec.origin = file.origin;
  // spec.open_cpu is left for the writer to read when it opens the file (trace_writer.cc).
  return spec;
}

}  // namespace

StepController::StepController(const Schedule& schedule, TraceWriter* writer, uint64_t start_ns,
                               int64_t steps_per_file)
    : writer_(writer), planner_(schedule, steps_per_file, start_ns) {}

int64_t StepController::current_step() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return planner_.step();
}

bool StepController::window_open() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return planner_.window_open();
}

bool StepController::WindowGoesOnPastBoundary(int next_state) const {
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  return planner_.WindowGoesOnPastBoundary(next_state, now);
}

bool StepController::NextStepRecords() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return planner_.NextStepRecords();
}

void StepController::Begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  Apply(planner_.On(WindowEvent::Of(EventKind::kBegin), 0));
}

void StepController::Start() {
  if (started_flag_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (planner_.started()) return;
  // Before the actions: the subscription below may record on this thread, which comes back
  // here and must return at once.
  started_flag_.store(true, std::memory_order_release);
  // CUPTI first and synchronously (the program's first recorded call is waiting for us),
  // then the window, which starts the writer thread.
  Apply(planner_.On(WindowEvent::Of(EventKind::kStart), 0));
  // The writer thread also polls for on-demand triggers (control/trigger.h): it runs from
  // the session's start even when no window is open (when that poll is on).
  writer_->StartThreadForPoll();
}

void StepController::Step(int64_t samples) { StepTo(samples, -1); }

void StepController::StampNextBoundary() {
  if (t_stamped_ns != 0) return;  // the first stamp stands
  Start();
  writer_->drain_horizon().Enter();  // left by the boundary (StepTo)
  t_stamped_ns = MonotonicNsOrdered();  // after the increment, as in StepTo
}

int64_t StepController::StepTo(int64_t samples, int next_state) {
  Start();
  EnableDeviceBeforeBoundary(next_state);
  const uint64_t stamped = t_stamped_ns;
  t_stamped_ns = 0;
  int64_t open_index = -1;
  {
    // In flight from before the boundary's timestamp until its commands are queued, so the
    // writer never drains a record of a window it has not been told of (drain_horizon.h).
    // Start() needs none: the first command of all starts the writer thread. With a stamp
    // taken earlier this thread has been in flight since then.
    DrainHorizon::Producing producing(writer_->drain_horizon());
    const uint64_t now = stamped != 0 ? stamped : MonotonicNsOrdered();
    std::lock_guard<std::mutex> lock(mutex_);
    // Another thread's boundary made since the stamp: steps stay in order.
    last_boundary_ns_ = std::max(now, last_boundary_ns_);
    const WindowPlan plan = planner_.On(WindowEvent::Boundary(next_state), last_boundary_ns_);
    Apply(plan, samples);
    open_index = plan.open_index;
  }
  if (stamped != 0) writer_->drain_horizon().Leave();  // StampNextBoundary's Enter
  return open_index;
}

// The boundary into a step that needs the device asks for it and waits (bounded, without
// the mutex): see WindowPlanner::OnBeforeBoundary.
void StepController::EnableDeviceBeforeBoundary(int next_state) {
  uint64_t ticket = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!planner_.AsksDeviceBefore(next_state)) return;  // most boundaries
    const bool busy = device_ticket_ != 0 && !writer_->DeviceCommandDone(device_ticket_);
    ticket = Apply(planner_.On(WindowEvent::BeforeBoundary(next_state, busy), 0));
  }
  if (ticket != 0) WaitForDevice(ticket);
}

int64_t StepController::SetState(int state) {
  Start();
  uint64_t ticket = 0;
  int64_t index = -1;
  {
    DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
    const uint64_t now = MonotonicNs();
    std::lock_guard<std::mutex> lock(mutex_);
    const WindowPlan plan = planner_.On(WindowEvent::SetState(state), now);
    ticket = Apply(plan);
    index = plan.open_index;
  }
  if (ticket != 0) WaitForDevice(ticket);  // as prof_start does
  return index;
}

void StepController::End() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Apply(planner_.On(WindowEvent::Of(EventKind::kEnding), 0));  // no new file from here
  }
  // The step in progress at exit is recorded, ending now, and marked as such: it is the
  // program's teardown, which the Perf Summary does not count as an iteration.
  Step(kStepOpenAtExit);
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  std::lock_guard<std::mutex> lock(mutex_);
  Apply(planner_.On(WindowEvent::Of(EventKind::kEnd), MonotonicNsOrdered()));
}

int64_t StepController::OpenOnDemand(int64_t end_step, uint64_t end_ns, bool only_if_none_open,
                                     int32_t origin) {
  Start();
  uint64_t ticket = 0;
  int64_t index = -1;
  {
    DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
    const uint64_t now = MonotonicNs();
    std::lock_guard<std::mutex> lock(mutex_);
    const WindowPlan plan =
        planner_.On(WindowEvent::OpenDemand(end_step, end_ns, only_if_none_open, origin), now);
    ticket = Apply(plan);
    index = plan.accepted ? plan.open_index : -1;
  }
  if (ticket != 0) WaitForDevice(ticket);  // prof_start's (see WaitForDevice)
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

int64_t StepController::CloseOnDemand() {
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  const WindowPlan plan = planner_.On(WindowEvent::Of(EventKind::kCloseDemand), now);
  Apply(plan);
  return plan.closed_index;
}

bool StepController::OpenAtNextStep(int64_t steps) {
  Start();
  std::lock_guard<std::mutex> lock(mutex_);
  const WindowPlan plan = planner_.On(WindowEvent::OpenAtNextStep(steps), 0);
  Apply(plan);
  return plan.accepted;
}

bool StepController::Tick(uint64_t now_ns) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!planner_.EndDue(now_ns)) return planner_.DeadlinePending();
  }
  DrainHorizon::Producing producing(writer_->drain_horizon());  // as in Step()
  const uint64_t now = MonotonicNs();
  std::lock_guard<std::mutex> lock(mutex_);
  Apply(planner_.On(WindowEvent::Of(EventKind::kTick), now));
  return planner_.DeadlinePending();
}

// Reached from the first intercepted CUDA call after a deferral: queues the subscription.
void StepController::EnableDeferredDevice() {
  std::lock_guard<std::mutex> lock(mutex_);
  Apply(planner_.On(WindowEvent::Of(EventKind::kCudaLoaded), 0));
}

// At the session's start (before the writer thread exists) this subscribes now, on the
// calling thread, if the process has loaded CUDA, else leaves it to the first intercepted
// CUDA call (cuda_presence.h). At a step boundary the writer is only asked (kDeviceOn), and
// makes the same check on its own thread (see the header on READY).
void StepController::SubscribeBeforeWriterThread() {
  if (CudaLibraryLoaded()) {
    writer_->EnableDeviceNow();
  } else {
    internal::g_device_deferred.store(true);
  }
}

// Called with mutex_ held: the planner's actions, in its order (a close before an open).
uint64_t StepController::Apply(const WindowPlan& plan, int64_t samples) {
  uint64_t wait_for_ticket = 0;
  for (int i = 0; i < plan.count; ++i) {
    const WindowAction& action = plan.actions[i];
    switch (action.kind) {
      case ActionKind::kStepEnded:
        steps_seen_.fetch_add(1, std::memory_order_relaxed);
        FlightStep(action.step, action.start_ns, action.ns);  // every boundary (flight_ring.h)
        if (action.flag) RecordStep(action.step, samples, action.start_ns, action.ns);
        break;
      case ActionKind::kStepBegan:
        SetCurrentStep(action.step);  // records lost from now on count in it (step_losses.h)
        break;
      case ActionKind::kOpenWindow:
        if (!action.flag) writer_->OpenWindow(SpecOf(action.window));
        SetRecording(true);
        break;
      case ActionKind::kCloseWindow:
        SetRecording(false);
        if (!action.flag) writer_->CloseWindow(action.ns);
        break;
      case ActionKind::kSplitWindow:
        // The recording flag stays on: hooks keep recording across the boundary.
        writer_->SplitWindow(action.ns, SpecOf(action.window));
        break;
      case ActionKind::kHandOverWindow: writer_->OpenWindow(SpecOf(action.window)); break;
      case ActionKind::kDeviceOn:
        device_ticket_ = writer_->SetDeviceEnabled(true);
        if (action.flag) wait_for_ticket = device_ticket_;
        break;
      case ActionKind::kDeviceOnNow: SubscribeBeforeWriterThread(); break;
      case ActionKind::kDeviceOff: writer_->SetDeviceEnabled(false); break;
    }
  }
  return wait_for_ticket;
}

}  // namespace prof
