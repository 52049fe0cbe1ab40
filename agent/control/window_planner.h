// The window planner: which recording windows open and close, and when device activity is
// wanted, for the three window policies, as a pure state machine. Each call takes the
// planner's state, the time `now_ns` (an argument: nothing here reads a clock) and one
// event, and returns the actions in the order they must be applied. StepController
// (step_controller.h) takes the timestamps, holds the lock and applies the actions to the
// writer, the recording flag and the device subscription; this file decides, and knows
// nothing of CUDA, the clock, threads or the writer, so it is table-tested alone
// (window_planner_test.cc).
//
// The policies:
// - Schedule (PROF_SCHEDULE, make_scheduler): each step's state comes from the schedule; a
//   window is open while the state records (RECORD, RECORD_AND_RETURN).
// - Program-driven (prof_step_to, prof_set_state: the Python Profiler's own scheduler): from
//   the first state the program gives, the mode is kProgram for good; the schedule no longer
//   applies and a schedule window open then ends there.
// - On demand (prof_start/prof_stop, on-demand triggers): a demand window opens now or at the
//   next step boundary, whatever the step states say, and ends when asked, at an end step or
//   at an end time (kTick). While one is open the state-driven windows open and close
//   nothing; the schedule window it overlapped is skipped to its end.
// A window longer than `steps_per_file` steps goes on in a new file (kSplitWindow); the
// recording flag stays on across the split.
//
// Device activity is wanted from a READY step (or a recording one without READY before it,
// or a demand window due at the next boundary) until nothing is open. The boundary into such
// a step asks for it first and waits (kBeforeBoundary); prof_start and prof_set_state wait
// for a subscription they ask for; a trigger's window does not.
//
// Before kStart (the session's first record or step) the writer has no thread: a window
// opened then is marked `deferred` (only the recording flag changes) and handed to the
// writer at kStart (kHandOverWindow), with the device subscribed there on the calling thread
// (kDeviceOnNow).
//
// Not thread-safe: the caller serializes events (StepController's mutex).
#ifndef PROF_AGENT_CONTROL_WINDOW_PLANNER_H_
#define PROF_AGENT_CONTROL_WINDOW_PLANNER_H_

#include <cstdint>

#include "agent/control/schedule.h"

namespace prof {

// Who gives each step its state: the schedule, or (from its first state on) the program.
enum class StateSource : uint8_t { kSchedule, kProgram };

// What opened the window that is open (kNone: none is).
enum class WindowKind : uint8_t { kNone, kSchedule, kProgram, kDemand };

// One window file, as the writer is to open it (WindowSpec without the CPU reading).
struct PlannedWindow {
  uint32_t index;
  uint64_t open_ns;
  int64_t first_step;
  int64_t end_step;  // one past the last step it is meant to hold; 0: not known
  int32_t origin;    // schema::WindowOrigin
  bool operator==(const PlannedWindow& other) const;
};

enum class ActionKind : uint8_t {
  kStepEnded,       // step `step` ran [start_ns, ns]; `flag`: a window holds it (a kStep record)
  kStepBegan,       // step `step` begins: losses count in it from now on
  kOpenWindow,      // recording on; `window` to the writer unless `flag` (deferred)
  kCloseWindow,     // recording off; the writer closes at `ns` unless `flag` (deferred)
  kSplitWindow,     // the open window goes on at `ns` in the file `window`
  kHandOverWindow,  // kStart: the deferred open `window` to the writer (recording is on)
  kDeviceOn,        // ask the writer to subscribe device activity; `flag`: wait for it
  kDeviceOnNow,     // kStart: subscribe now on this thread (or defer until CUDA is loaded)
  kDeviceOff,       // ask the writer to unsubscribe
};

const char* ActionKindName(ActionKind kind);

// Trivially constructible, so that a plan's array costs nothing until used (a step boundary
// makes two plans; zeroing them measured +40 ns a step). Add() sets every field but
// `window`, which only kOpenWindow, kSplitWindow and kHandOverWindow set and read.
struct WindowAction {
  ActionKind kind;
  bool flag;
  uint64_t ns;
  int64_t step;
  uint64_t start_ns;
  PlannedWindow window;
};

struct WindowPlan {
  // The most one event produces: a boundary's step ended and began, a close, an open (with
  // the recording flag) and the device (a split excludes a close and an open).
  static constexpr int kMaxActions = 6;
  WindowAction actions[kMaxActions];
  int count = 0;
  int64_t open_index = -1;    // the window open after the event (its first file), -1: none
  int64_t closed_index = -1;  // kCloseDemand: the window it closed, -1: none was open
  // kOpenDemand: a window is open (false: refused, one was open and only_if_none_open);
  // kOpenAtNextStep: the window is arranged (false: one is open, or no steps asked for).
  bool accepted = false;
};

enum class EventKind : uint8_t {
  kBegin,           // step 0's state, at the planner's start time
  kStart,           // the session starts: the writer can take commands
  kBeforeBoundary,  // before a boundary's timestamp: the device for the step it begins
  kBoundary,        // the current step ends at now_ns; the next begins
  kSetState,        // the current step is put in `state` now
  kOpenDemand,      // a demand window opens now
  kCloseDemand,     // the open window closes now (a schedule window is skipped to its end)
  kOpenAtNextStep,  // a demand window of `steps` steps opens at the next boundary
  kTick,            // closes a demand window whose end time has come
  kCudaLoaded,      // the process loaded CUDA: a deferred subscription can be made
  kEnding,          // at exit, before the last boundary: no new file, no new window
  kEnd,             // after it: the open window closes; every later event is ignored
};

struct WindowEvent {
  EventKind kind = EventKind::kBoundary;
  int state = -1;            // kBeforeBoundary, kBoundary, kSetState: a StepState, -1: none
  bool device_busy = false;  // kBeforeBoundary: the writer is still on an earlier device command
  int64_t end_step = -1;     // kOpenDemand: closes at the boundary that begins it (-1: no)
  uint64_t end_ns = 0;       // kOpenDemand: closes at the first kTick at or after it (0: no)
  bool only_if_none_open = false;  // kOpenDemand: nothing when a window is open (a trigger)
  int32_t origin = 1;              // kOpenDemand: schema::WindowOrigin (1: WINDOW_ORIGIN_API)
  int64_t steps = 0;               // kOpenAtNextStep

  static WindowEvent Of(EventKind kind);
  static WindowEvent Boundary(int next_state = -1);
  static WindowEvent BeforeBoundary(int next_state, bool device_busy);
  static WindowEvent SetState(int state);
  static WindowEvent OpenDemand(int64_t end_step, uint64_t end_ns, bool only_if_none_open,
                                int32_t origin);
  static WindowEvent OpenAtNextStep(int64_t steps);
};

class WindowPlanner {
 public:
  // `start_ns`: when step 0 began; `steps_per_file` 0: no limit.
  WindowPlanner(const Schedule& schedule, int64_t steps_per_file, uint64_t start_ns);

  WindowPlan On(const WindowEvent& event, uint64_t now_ns);

  int64_t step() const { return step_; }
  StepState state() const { return state_; }
  StateSource mode() const { return mode_; }
  WindowKind window() const { return window_; }
  bool window_open() const { return window_ != WindowKind::kNone; }
  bool started() const { return started_; }
  bool ended() const { return ended_; }
  bool device_wanted() const { return device_wanted_; }
  // Whether kBeforeBoundary with `next_state` would ask for the device (if the writer is not
  // busy): the caller reads the writer's progress only then.
  bool AsksDeviceBefore(int next_state) const;
  // Whether kTick at `now_ns` would close the open window (a cheap check before taking a
  // timestamp under the caller's bookkeeping).
  bool EndDue(uint64_t now_ns) const;
  // Whether a demand window with an end time is open: a kTick will close it.
  bool DeadlinePending() const {
    return !ended_ && window_ == WindowKind::kDemand && demand_end_ns_ != 0;
  }
  // Whether the window open now goes on in the same file past the next boundary (kBoundary
  // with `next_state` at `now_ns`, asked of a copy of this planner): false when none is
  // open, when that boundary closes or splits it, at exit, or when it may close before then
  // (a demand window with an end time closes at a kTick). The Python helper reads PyTorch's
  // operator collection once per window (at the boundary where this is false), not at every
  // boundary.
  bool WindowGoesOnPastBoundary(int next_state, uint64_t now_ns) const;
  // Whether the step after the current one records, given no state for it (the schedule's,
  // or the program's kept state): prof_step_ended's second answer, asked as a step begins.
  bool NextStepRecords() const;

 private:
  void OnStart(WindowPlan* plan);
  void OnBeforeBoundary(const WindowEvent& event, WindowPlan* plan);
  void OnBoundary(const WindowEvent& event, uint64_t now_ns, WindowPlan* plan);
  void OnSetState(int state, uint64_t now_ns, WindowPlan* plan);
  void OnOpenDemand(const WindowEvent& event, uint64_t now_ns, WindowPlan* plan);
  void OnCloseDemand(uint64_t now_ns, WindowPlan* plan);
  void OnOpenAtNextStep(int64_t steps, WindowPlan* plan);
  void OnTick(uint64_t now_ns, WindowPlan* plan);

  void Transition(StepState previous, StepState next, uint64_t now_ns, WindowPlan* plan);
  bool TakesOver(int next_state) const;
  StepState NextState(int next_state);
  StepState StateAfterBoundary(int64_t step, int next_state) const;
  PlannedWindow NextFile(uint64_t now_ns);
  void OpenWindow(WindowKind kind, uint64_t now_ns, WindowPlan* plan);
  void OpenDemandWindow(uint64_t now_ns, int64_t end_step, uint64_t end_ns, int32_t origin,
                        WindowPlan* plan);
  void CloseWindow(uint64_t now_ns, WindowPlan* plan);
  void UpdateDevice(WindowPlan* plan);
  WindowAction& Add(ActionKind kind, WindowPlan* plan);

  const Schedule schedule_;
  const int64_t steps_per_file_;
  int64_t step_ = 0;
  uint64_t step_start_ns_;
  StepState state_ = StepState::kClosed;
  StateSource mode_ = StateSource::kSchedule;
  WindowKind window_ = WindowKind::kNone;
  PlannedWindow file_{};         // the open window's file as opened (kHandOverWindow's)
  int64_t file_first_step_ = 0;  // the first step of the open window's current file
  int32_t demand_origin_ = 0;    // the open demand window's origin
  int64_t demand_end_step_ = -1;
  uint64_t demand_end_ns_ = 0;
  bool schedule_skipped_ = false;  // the schedule window a demand window overlapped
  int64_t demand_next_steps_ = 0;  // a demand window due at the next boundary (0: none)
  uint32_t next_index_ = 0;
  bool device_wanted_ = false;
  bool wait_for_device_ = false;  // this event's kDeviceOn waits (prof_start, prof_set_state)
  bool started_ = false;
  bool ending_ = false;
  bool ended_ = false;
};

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_WINDOW_PLANNER_H_
