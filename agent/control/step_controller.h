// Counts steps and applies the window planner's actions (window_planner.h decides; this
// class takes the timestamps, serializes the events and carries the actions out): opening
// and closing recording windows, turning the recording flag on and off, and asking the
// writer to subscribe to device activity one step early (READY) and to unsubscribe when
// nothing is left to record. Each recorded step is written as a kStep record (ProfileStep#k). A
// window longer than `steps_per_file` steps continues in a new file at a step boundary
// (PROF_STEPS_PER_FILE).
//
// A step boundary runs on the program's thread (prof_step, an NVTX ProfileStep range, a
// PROF_STEP_MARKER rule) and, but for the device wait below (READY), never waits there: it takes
// the timestamp, appends the step record, updates the state and queues what the boundary needs
// (window open/close/split, CUPTI subscribe/unsubscribe) for the writer thread, which also takes
// the CPU readings and checks whether CUDA is loaded. No I/O, no /proc, no dl_iterate_phdr, no
// allocation, no lock the writer holds: commands go into the writer's lock-free ring
// (trace_writer.h). From before the timestamp until the commands are queued the boundary is marked
// in flight (two atomic operations), so the writer never drains a record of a window it has not
// been told of yet (drain_horizon.h). Measured (agent/bench/step_cost_benchmark, -c opt): ~60 ns
// per step in CLOSED, ~70 ns in RECORD (median), ~110 ns median with a window opening or closing at
// every step; the in-flight mark is ~10 ns of these, the window planner's decisions about 10 ns
// more (median 90 -> 100 ns side by side on a 2-core machine).
//
// READY: device activity is turned on at the boundary that begins READY (or, with ready=0,
// the window), before that boundary's timestamp: the boundary asks the writer to subscribe
// and waits for it, at most 2 s (EnableDeviceBeforeBoundary). Enabling takes CUPTI 12-15 ms
// on a real GPU, longer than many steps, so without the wait the first recorded steps
// would lack their kernels; the time falls in the step that ends there, which is not
// recorded. This is the one wait at a step boundary, once per window. If the subscription
// still took effect after a window opened (the 2 s bound, CUDA loaded late), the launches
// made before it have no device records; the writer then puts a clock anchor "device
// activity subscribed" in the window's file, at the time device activity begins, and warns
// once.
//
// Thread safety: Step() may be called from any thread. A std::mutex orders steps: it is
// held only for the in-memory work above (well under a microsecond, never across I/O or
// a wait for the writer), so two threads ending steps at once wait at most for each
// other's bookkeeping; it also makes the step controller the single producer of the
// writer's ring. A CAS on the step counter would not do: a step's record, its state change
// and the commands it queues must be applied in step order, as one. The recording flag it
// flips is read lock-free by the hooks. Exceptions, once per process: the first step or
// record starts the session (Start(): CUPTI when step 0 needs it, then the writer thread),
// and the first window command starts the writer thread if Start() did not.
#ifndef PROF_AGENT_CONTROL_STEP_CONTROLLER_H_
#define PROF_AGENT_CONTROL_STEP_CONTROLLER_H_

#include <atomic>
#include <cstdint>
#include <mutex>

#include "agent/control/schedule.h"
#include "agent/control/window_planner.h"
#include "agent/writer/trace_writer.h"

namespace prof {

class StepController {
 public:
  // `start_ns` is when step 0 began (the agent's start); `steps_per_file` 0: no limit.
  StepController(const Schedule& schedule, TraceWriter* writer, uint64_t start_ns,
                 int64_t steps_per_file = 0);

  // Applies the state of step 0: sets the recording flag now (the window itself is handed
  // to the writer by Start, which may start a thread and so must not run during loading).
  void Begin();
  void Start();

  // Ends the current step; `samples` <= 0 means unknown.
  void Step(int64_t samples);
  // Takes now the timestamp of the next boundary this thread makes (Step, StepTo), for a
  // caller with work to hand over before it that belongs to the ending step (the Python
  // helper reads PyTorch's operators at a window's last boundary, tens of ms: they must
  // not lengthen that step). Until that boundary the writer's drain horizon stays where it
  // is (this thread is in flight, drain_horizon.h), so records stamped before the boundary
  // still find the window. A second call before the boundary keeps the first stamp. The
  // caller must make the boundary: the writer drains nothing new until then.
  void StampNextBoundary();
  // The program's own schedule (the Python Profiler's scheduler): ends the current step
  // and puts the next one in `next_state` (a StepState value; -1: the schedule's), with
  // the schedule's window rules, at the boundary's one timestamp. From the first state given
  // here or to SetState, PROF_SCHEDULE no longer applies (a step with no state keeps the
  // current one; RECORD_AND_RETURN is followed by CLOSED), and a window the schedule had
  // open ends there: the program's windows are its own. Returns the index of the window
  // open after the boundary, or -1.
  int64_t StepTo(int64_t samples, int next_state);
  // Puts the current step in `state` now (Profiler.start/stop); returns as StepTo. Like
  // OpenOnDemand for prof_start, waits (at most 2 s) for a device subscription it asks for.
  int64_t SetState(int state);

  // At exit: ends the current step (recorded like any other) and closes the window.
  void End();

  int64_t steps_seen() const { return steps_seen_.load(std::memory_order_relaxed); }
  // True once Start() ran: something was recorded or a step was marked.
  bool started() const { return started_flag_.load(std::memory_order_acquire); }

  // Subscribes device activity that was deferred until the process used CUDA.
  void EnableDeferredDevice();

  // Windows on demand (prof_start/prof_stop, on-demand triggers: control/trigger.h).
  // Open(): opens a window now, whatever the schedule says; a schedule window open then
  // ends here. Returns the window's index (that of the demand window already open, if
  // any). While a demand window is open the schedule opens and closes nothing; the schedule
  // window it overlapped is not reopened after it, and the schedule resumes with its next
  // window. With `origin` WINDOW_ORIGIN_API (prof_start) it waits, at most 2 s and without
  // the mutex, for the device subscription it asks for (a trigger's window does not).
  // `end_step` >= 0: the window closes at the boundary that begins that step;
  // `end_ns` > 0: at the first Tick() at or after that time.
  // `only_if_none_open`: returns -1 and does nothing when any window is open (a trigger).
  // `origin`: what the window's file says opened it (schema::WindowOrigin).
  int64_t OpenOnDemand(int64_t end_step = -1, uint64_t end_ns = 0, bool only_if_none_open = false,
                       int32_t origin = 1 /* WINDOW_ORIGIN_API */);
  // Closes the open window (a demand or a schedule window: the rest of that schedule
  // window is skipped). Returns the closed window's index, or -1 when none was open.
  int64_t CloseOnDemand();
  // Opens a demand window of `steps` steps at the next step boundary, unless a window is
  // open then. False (nothing done) when a window is open now.
  bool OpenAtNextStep(int64_t steps);
  // Closes a demand window whose end time has come (called by the writer's control poll).
  // Returns whether a demand window's end time is still ahead (the writer then keeps
  // its regular period rather than its deep idle one).
  bool Tick(uint64_t now_ns);
  bool window_open() const;
  // WindowPlanner::WindowGoesOnPastBoundary now (prof_window_goes_on).
  bool WindowGoesOnPastBoundary(int next_state) const;
  // WindowPlanner::NextStepRecords now (prof_step_ended).
  bool NextStepRecords() const;
  int64_t current_step() const;

 private:
  // Applies `plan` (with mutex_ held); `samples` for a step record. Returns the ticket of a
  // device subscription to wait for (without the mutex), 0: none.
  uint64_t Apply(const WindowPlan& plan, int64_t samples = 0);
  void EnableDeviceBeforeBoundary(int next_state);
  void WaitForDevice(uint64_t ticket);
  void SubscribeBeforeWriterThread();

  TraceWriter* const writer_;
  mutable std::mutex mutex_;
  WindowPlanner planner_;       // guarded by mutex_: every decision (window_planner.h)
  uint64_t device_ticket_ = 0;  // guarded by mutex_; the last subscription asked for
  // Read without the mutex: Start() is reached from the first record of a thread, which
  // may be made while this thread holds mutex_ (the step record in Step()).
  std::atomic<bool> started_flag_{false};
  std::atomic<int64_t> steps_seen_{0};
  uint64_t last_boundary_ns_ = 0;  // guarded by mutex_; a stamp never goes before it
};

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_STEP_CONTROLLER_H_
