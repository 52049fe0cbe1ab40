// Counts steps and applies the schedule's transitions: opening and closing recording
// windows, turning the recording flag on and off, and asking the writer to subscribe to
// device activity one step early (READY) and to unsubscribe when nothing is left to
// record. Each recorded step is written as a kStep record (ProfileStep#k). A window longer
// than `steps_per_file` steps continues in a new file at a step boundary (PROF_STEPS_PER_FILE).
//
// Thread safety: Step() may be called from any thread (a mutex orders steps); the
// recording flag it flips is read lock-free by the hooks.
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
  StepController(const Schedule& schedule, TraceWriter* writer, uint64_t start_ns, int64_t steps_per_file = 0);

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
