#include "agent/control/window_planner.h"

#include <algorithm>

#include "proto/schema_enums.h"

namespace prof {
namespace {

bool IsRecording(StepState state) {
  return state == StepState::kRecord || state == StepState::kRecordAndReturn;
}

}  // namespace

bool PlannedWindow::operator==(const PlannedWindow& other) const {
  return index == other.index && open_ns == other.open_ns && first_step == other.first_step &&
         end_step == other.end_step && origin == other.origin;
}

const char* ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kStepEnded: return "step_ended";
    case ActionKind::kStepBegan: return "step_began";
    case ActionKind::kOpenWindow: return "open_window";
    case ActionKind::kCloseWindow: return "close_window";
    case ActionKind::kSplitWindow: return "split_window";
    case ActionKind::kHandOverWindow: return "hand_over_window";
    case ActionKind::kDeviceOn: return "device_on";
    case ActionKind::kDeviceOnNow: return "device_on_now";
    case ActionKind::kDeviceOff: return "device_off";
  }
  return "?";
}

WindowEvent WindowEvent::Of(EventKind kind) {
  WindowEvent event;
  event.kind = kind;
  return event;
}

WindowEvent WindowEvent::Boundary(int next_state) {
  WindowEvent event = Of(EventKind::kBoundary);
  event.state = next_state;
  return event;
}

WindowEvent WindowEvent::BeforeBoundary(int next_state, bool device_busy) {
  WindowEvent event = Of(EventKind::kBeforeBoundary);
  event.state = next_state;
  event.device_busy = device_busy;
  return event;
}

WindowEvent WindowEvent::SetState(int state) {
  WindowEvent event = Of(EventKind::kSetState);
  event.state = state;
  return event;
}

WindowEvent WindowEvent::OpenDemand(int64_t end_step, uint64_t end_ns, bool only_if_none_open,
                                    int32_t origin) {
  WindowEvent event = Of(EventKind::kOpenDemand);
  event.end_step = end_step;
  event.end_ns = end_ns;
  event.only_if_none_open = only_if_none_open;
  event.origin = origin;
  return event;
}

WindowEvent WindowEvent::OpenAtNextStep(int64_t steps) {
  WindowEvent event = Of(EventKind::kOpenAtNextStep);
  event.steps = steps;
  return event;
}

WindowPlanner::WindowPlanner(const Schedule& schedule, int64_t steps_per_file, uint64_t start_ns)
    : schedule_(schedule), steps_per_file_(steps_per_file), step_start_ns_(start_ns) {}

WindowPlan WindowPlanner::On(const WindowEvent& event, uint64_t now_ns) {
  WindowPlan plan;
  wait_for_device_ = false;
  if (ended_) return plan;  // after exit's last boundary nothing changes
  switch (event.kind) {
    case EventKind::kBegin:
      state_ = schedule_.StateOf(0);
      Transition(StepState::kClosed, state_, step_start_ns_, &plan);
      break;
    case EventKind::kStart: OnStart(&plan); break;
    case EventKind::kBeforeBoundary: OnBeforeBoundary(event, &plan); break;
    case EventKind::kBoundary: OnBoundary(event, now_ns, &plan); break;
    case EventKind::kSetState: OnSetState(event.state, now_ns, &plan); break;
    case EventKind::kOpenDemand: OnOpenDemand(event, now_ns, &plan); break;
    case EventKind::kCloseDemand: OnCloseDemand(now_ns, &plan); break;
    case EventKind::kOpenAtNextStep: OnOpenAtNextStep(event.steps, &plan); break;
    case EventKind::kTick: OnTick(now_ns, &plan); break;
    case EventKind::kCudaLoaded:
      if (device_wanted_ && started_) Add(ActionKind::kDeviceOn, &plan);
      break;
    case EventKind::kEnding: ending_ = true; break;
    case EventKind::kEnd:
      ended_ = true;
      if (window_open()) CloseWindow(now_ns, &plan);  // the device goes with the writer
      break;
  }
  plan.open_index = window_open() ? static_cast<int64_t>(file_.index) : -1;
  return plan;
}

bool WindowPlanner::AsksDeviceBefore(int next_state) const {
  if (ended_ || !started_ || device_wanted_) return false;
  const StepState next = StateAfterBoundary(step_ + 1, next_state);
  return next == StepState::kReady || IsRecording(next);
}

bool WindowPlanner::NextStepRecords() const {
  return IsRecording(StateAfterBoundary(step_ + 1, -1));
}

bool WindowPlanner::EndDue(uint64_t now_ns) const {
  return !ended_ && window_ == WindowKind::kDemand && demand_end_ns_ != 0 &&
         now_ns >= demand_end_ns_;
}

bool WindowPlanner::WindowGoesOnPastBoundary(int next_state, uint64_t now_ns) const {
  if (!window_open() || ending_ || ended_) return false;
  if (window_ == WindowKind::kDemand && demand_end_ns_ != 0) return false;
  WindowPlanner after = *this;
  const WindowPlan plan = after.On(WindowEvent::Boundary(next_state), now_ns);
  for (int i = 0; i < plan.count; ++i) {
    const ActionKind kind = plan.actions[i].kind;
    if (kind == ActionKind::kCloseWindow || kind == ActionKind::kSplitWindow) return false;
  }
  return after.window_open();
}

// The device first, on this thread (the program's first recorded call is waiting), then the
// window, which starts the writer thread.
void WindowPlanner::OnStart(WindowPlan* plan) {
  if (started_) return;
  started_ = true;
  if (device_wanted_) Add(ActionKind::kDeviceOnNow, plan);
  if (window_open()) Add(ActionKind::kHandOverWindow, plan).window = file_;
}

// Enabling device activity takes CUPTI 12-15 ms on a real GPU, longer than many steps: the
// boundary into a step that needs it asks first and waits, so the wait falls in the step
// that ends there, which is not recorded. One that finds the writer still on an earlier
// device command (stuck past the bound) asks nothing: a stuck writer costs one wait, not one
// per window.
void WindowPlanner::OnBeforeBoundary(const WindowEvent& event, WindowPlan* plan) {
  if (event.device_busy || !AsksDeviceBefore(event.state)) return;
  device_wanted_ = true;
  Add(ActionKind::kDeviceOn, plan).flag = true;
}

void WindowPlanner::OnBoundary(const WindowEvent& event, uint64_t now_ns, WindowPlan* plan) {
  WindowAction& ended = Add(ActionKind::kStepEnded, plan);
  ended.step = step_;
  ended.start_ns = step_start_ns_;
  ended.ns = now_ns;
  ended.flag = window_open();
  const StepState previous = state_;
  const bool taking_over = TakesOver(event.state);
  ++step_;
  Add(ActionKind::kStepBegan, plan).step = step_;
  state_ = NextState(event.state);
  step_start_ns_ = now_ns;
  // The program's first state ends the schedule's window at this boundary (as its last step
  // would), so the program's own window starts here.
  Transition(taking_over && window_open() ? StepState::kRecordAndReturn : previous, state_, now_ns,
             plan);
}

void WindowPlanner::OnSetState(int state, uint64_t now_ns, WindowPlan* plan) {
  wait_for_device_ = true;  // as prof_start: the program's next launches are recorded
  StepState previous = state_;
  if (TakesOver(state) && window_open()) {  // the schedule's window ends here
    CloseWindow(now_ns, plan);
    previous = StepState::kClosed;
  }
  state_ = NextState(state);
  // A window that is open stays open through RECORD -> RECORD_AND_RETURN; anything else that
  // does not record closes it, as at a step boundary.
  Transition(previous == StepState::kRecordAndReturn ? StepState::kRecord : previous, state_,
             now_ns, plan);
}

// A demand window open already stays (no action).
void WindowPlanner::OnOpenDemand(const WindowEvent& event, uint64_t now_ns, WindowPlan* plan) {
  if (event.only_if_none_open && window_open()) return;
  plan->accepted = true;
  if (window_ == WindowKind::kDemand) return;
  if (window_open()) CloseWindow(now_ns, plan);  // the schedule's window ends here
  if (IsRecording(state_)) schedule_skipped_ = true;
  wait_for_device_ = event.origin == schema::WINDOW_ORIGIN_API;
  OpenDemandWindow(now_ns, event.end_step, event.end_ns, event.origin, plan);
  UpdateDevice(plan);
}

void WindowPlanner::OnCloseDemand(uint64_t now_ns, WindowPlan* plan) {
  demand_next_steps_ = 0;
  if (window_open()) {
    plan->closed_index = file_.index;
    if (window_ != WindowKind::kDemand) schedule_skipped_ = true;  // the rest of the window
    CloseWindow(now_ns, plan);
  }
  UpdateDevice(plan);
}

void WindowPlanner::OnOpenAtNextStep(int64_t steps, WindowPlan* plan) {
  if (window_open() || steps <= 0) return;
  demand_next_steps_ = steps;
  plan->accepted = true;
  UpdateDevice(plan);  // subscribed now, as for a READY step
}

void WindowPlanner::OnTick(uint64_t now_ns, WindowPlan* plan) {
  if (!EndDue(now_ns)) return;
  CloseWindow(now_ns, plan);
  UpdateDevice(plan);
}

// The step-state windows, then the demand windows.
void WindowPlanner::Transition(StepState previous, StepState next, uint64_t now_ns,
                               WindowPlan* plan) {
  const bool records = IsRecording(next);
  const bool state_window_ends = !records || previous == StepState::kRecordAndReturn;
  if (schedule_skipped_ && state_window_ends) schedule_skipped_ = false;
  const bool demand = window_ == WindowKind::kDemand;
  if (demand && records) schedule_skipped_ = true;  // overlapped: skipped
  if (demand) {
    if (demand_end_step_ >= 0 && step_ >= demand_end_step_) CloseWindow(now_ns, plan);
  } else if (window_open() && state_window_ends) {
    CloseWindow(now_ns, plan);
  } else if (window_open() && !ending_ && steps_per_file_ > 0 &&
             step_ - file_first_step_ >= steps_per_file_) {
    // The window goes on in a new file; hooks keep recording across the boundary and the
    // writer routes each record by its start time. Before kStart nothing was recorded, so
    // the first file simply begins later.
    if (started_) {
      WindowAction& split = Add(ActionKind::kSplitWindow, plan);
      split.ns = now_ns;
      split.window = NextFile(now_ns);
    } else {
      file_first_step_ = step_;
    }
  }
  if (!window_open() && demand_next_steps_ > 0 && !ending_) {
    OpenDemandWindow(now_ns, step_ + demand_next_steps_, 0, schema::WINDOW_ORIGIN_TRIGGER, plan);
  }
  demand_next_steps_ = 0;
  if (!window_open() && records && !schedule_skipped_) {
    OpenWindow(mode_ == StateSource::kProgram ? WindowKind::kProgram : WindowKind::kSchedule,
               now_ns, plan);
  }
  UpdateDevice(plan);
}

// Whether `next_state` is the program's first state.
bool WindowPlanner::TakesOver(int next_state) const {
  return mode_ == StateSource::kSchedule && next_state >= 0 &&
         next_state <= static_cast<int>(StepState::kRecordAndReturn);
}

// The program's state replaces the schedule for good; after it, a step with no state given
// keeps the current one, but the last step of a window is followed by CLOSED.
StepState WindowPlanner::NextState(int next_state) {
  if (TakesOver(next_state)) mode_ = StateSource::kProgram;
  return StateAfterBoundary(step_, next_state);
}

// The state step `step` gets from a boundary given `next_state` (NextState without its
// side effect).
StepState WindowPlanner::StateAfterBoundary(int64_t step, int next_state) const {
  if (next_state >= 0 && next_state <= static_cast<int>(StepState::kRecordAndReturn)) {
    return static_cast<StepState>(next_state);
  }
  if (mode_ == StateSource::kSchedule) return schedule_.StateOf(step);
  return state_ == StepState::kRecordAndReturn ? StepState::kClosed : state_;
}

// The next file, from the current step: the schedule window's bounds (this file's share of
// them with `steps_per_file_`), or a demand or program window's own.
PlannedWindow WindowPlanner::NextFile(uint64_t now_ns) {
  PlannedWindow file{};
  file.index = next_index_++;
  file.open_ns = now_ns;
  const int64_t cycle = schedule_.CycleOf(step_);
  file.first_step = schedule_.record_everything ? 0 : schedule_.WindowFirstStep(cycle);
  file.end_step = schedule_.record_everything ? 0 : schedule_.WindowEndStep(cycle);
  if (window_ == WindowKind::kDemand || window_ == WindowKind::kProgram) {
    file.origin = window_ == WindowKind::kDemand ? demand_origin_ : schema::WINDOW_ORIGIN_PROGRAM;
    file.first_step = step_;
    file.end_step = demand_end_step_ > 0 ? demand_end_step_ : 0;
  } else if (steps_per_file_ > 0) {
    file.first_step = step_;
    file.end_step = schedule_.record_everything ? step_ + steps_per_file_
                                                : std::min(file.end_step, step_ + steps_per_file_);
  }
  file_first_step_ = step_;
  return file;
}

void WindowPlanner::OpenWindow(WindowKind kind, uint64_t now_ns, WindowPlan* plan) {
  window_ = kind;  // before NextFile, which reads it
  file_ = NextFile(now_ns);
  WindowAction& open = Add(ActionKind::kOpenWindow, plan);
  open.window = file_;
  open.flag = !started_;
}

// No window open.
void WindowPlanner::OpenDemandWindow(uint64_t now_ns, int64_t end_step, uint64_t end_ns,
                                     int32_t origin, WindowPlan* plan) {
  demand_origin_ = origin;
  demand_end_step_ = end_step;
  demand_end_ns_ = end_ns;
  OpenWindow(WindowKind::kDemand, now_ns, plan);
}

// A window not yet handed to the writer (before kStart) is simply dropped.
void WindowPlanner::CloseWindow(uint64_t now_ns, WindowPlan* plan) {
  WindowAction& close = Add(ActionKind::kCloseWindow, plan);
  close.ns = now_ns;
  close.flag = !started_;
  window_ = WindowKind::kNone;
  demand_end_step_ = -1;
  demand_end_ns_ = 0;
}

// Device activity: wanted from READY (or a window without one, or a demand window due at
// the next boundary) until nothing is open. Before kStart only the wish is kept (kStart
// subscribes).
void WindowPlanner::UpdateDevice(WindowPlan* plan) {
  const bool want = window_open() || state_ == StepState::kReady || demand_next_steps_ > 0;
  if (want == device_wanted_) return;
  device_wanted_ = want;
  if (!started_) return;
  if (want) {
    Add(ActionKind::kDeviceOn, plan).flag = wait_for_device_;
  } else {
    Add(ActionKind::kDeviceOff, plan);
  }
}

// Every event's actions fit (kMaxActions: see WindowPlan); the planner test checks the
// bound over long random event sequences. Past it, the last slot is reused rather than
// writing out of bounds.
WindowAction& WindowPlanner::Add(ActionKind kind, WindowPlan* plan) {
  if (plan->count < WindowPlan::kMaxActions) ++plan->count;
  WindowAction& action = plan->actions[plan->count - 1];
  action.kind = kind;
  action.flag = false;
  action.ns = 0;
  action.step = 0;
  action.start_ns = 0;
  return action;
}

}  // namespace prof
