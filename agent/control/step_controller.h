// Counts steps and applies the schedule's transitions: opening and closing recording
// windows, turning the recording flag on and off, and asking the writer to subscribe to
// device activity one step early (READY) and to unsubscribe when nothing is left to
// record. Each recorded step is written as a kStep record (ProfileStep#k). A window longer
// than `steps_per_file` steps continues in a new file at a step boundary (PROF_STEPS_PER_FILE).
//
// A step boundary runs on the program's thread (prof_step, an NVTX ProfileStep range, a
// PROF_STEP_MARKER rule) and never waits there: it takes the timestamp, appends the step
// record, updates the state and queues what the boundary needs (window open/close/split,
// CUPTI subscribe/unsubscribe) for the writer thread, which also takes the CPU readings and
// checks whether CUDA is loaded. No I/O, no /proc, no dl_iterate_phdr, no allocation, no
// lock the writer holds: commands go into the writer's lock-free ring (trace_writer.h).
// From before the timestamp until the commands are queued the boundary is marked in flight
// (two atomic operations), so the writer never drains a record of a window it has not been
// told of yet (drain_horizon.h).
// Measured (agent/bench/step_cost_benchmark, -c opt): ~60 ns per step in CLOSED, ~70 ns in
// RECORD (median), ~110 ns median with a window opening or closing at every step; the
// in-flight mark is ~10 ns of these.
//
// READY: the subscription is asked for when READY begins and made by the writer while the
// READY step runs (it is woken at once), so the first recorded step sees all its device
// activity whenever READY lasts longer than the subscription (milliseconds; the first one
// in a process also loads libcupti). Windows open exactly on schedule, whatever the writer
// is doing: if it has not subscribed yet when the window opens (READY steps shorter than
// the subscription, a stalled writer, ready=0), the launches made before the subscription
// have no device records; the writer then puts a clock anchor "device activity subscribed"
// in the window's file, at the time device activity begins, and warns once.
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

  // At exit: ends the current step (recorded like any other) and closes the window.
  void End();

  int64_t steps_seen() const { return steps_seen_.load(std::memory_order_relaxed); }
  // True once Start() ran: something was recorded or a step was marked.
  bool started() const { return started_flag_.load(std::memory_order_acquire); }

  // Subscribes device activity that was deferred until the process used CUDA.
  void EnableDeferredDevice();
  int64_t current_step() const;

 private:
  void Transition(StepState previous, StepState next, uint64_t now_ns);
  WindowSpec NextWindowSpec(uint64_t now_ns);
  void OpenWindow(uint64_t now_ns);
  void RequestDeviceActivity(bool before_writer_thread);

  const Schedule schedule_;
  TraceWriter* const writer_;
  const int64_t steps_per_file_;
  mutable std::mutex mutex_;
  int64_t step_ = 0;                       // guarded by mutex_
  StepState state_ = StepState::kClosed;   // guarded by mutex_
  uint64_t step_start_ns_;                 // guarded by mutex_
  uint32_t next_window_ = 0;               // guarded by mutex_
  bool window_open_ = false;               // guarded by mutex_
  int64_t file_first_step_ = 0;            // guarded by mutex_; first step of the open file
  bool device_enabled_ = false;            // guarded by mutex_
  bool started_ = false;                   // guarded by mutex_
  // Read without the mutex: Start() is reached from the first record of a thread, which
  // may be made while this thread holds mutex_ (the step record in Step()).
  std::atomic<bool> started_flag_{false};
  bool pending_open_ = false;              // a window to hand over at Start()
  WindowSpec pending_spec_;
  bool ending_ = false;                    // guarded by mutex_
  bool ended_ = false;
  std::atomic<int64_t> steps_seen_{0};
};

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_STEP_CONTROLLER_H_
