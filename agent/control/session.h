// Everything the agent runs in one process: the configuration, the writer and the step
// controller. Planned by the library constructor (the parsed configuration and the load
// time only) and built at the first recorded call or step (Current), so a process that
// never records (a shell, a compiler under the same LD_PRELOAD) pays for neither the
// writer nor the CUPTI adapter. The writer thread starts at the session's start (the first
// recorded event or step), also while no window is open, for it polls for on-demand
// triggers (PROF_TRIGGER=0: only at the first window, as before triggers existed). After
// fork() the child gets a fresh session of its own, built at its first recorded call or
// step (lifecycle.cc).
//
// Thread safety: the accessors are safe from any thread once Current() is non-null.
#ifndef PROF_AGENT_CONTROL_SESSION_H_
#define PROF_AGENT_CONTROL_SESSION_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "agent/control/config.h"
#include "agent/control/step_controller.h"
#include "agent/writer/trace_writer.h"

namespace prof {

class Session {
 public:
  Session(const Config& config, uint64_t start_ns);

  // The process's session, built by the first call from the plan (Plan) or, in a forked
  // child, from its parent's configuration (DeferForChild); nullptr when the agent is
  // disabled or not yet initialized.
  static Session* Current() {
    Session* session = current_.load(std::memory_order_acquire);
    if (session || (!deferred_parent_.load(std::memory_order_acquire) &&
                    !planned_.load(std::memory_order_acquire))) {
      return session;
    }
    return CreateDeferred();
  }
  // The session if one was built; never builds one (exit: a child that never recorded
  // leaves nothing behind).
  static Session* Existing() { return current_.load(std::memory_order_acquire); }
  // The configuration a forked child's session is built from: this process's session's,
  // or, where none is built yet, the one it would be built from; nullptr when disabled.
  static const Config* ConfigForChildren();
  // From the library constructor: the session is built from `config` (kept for the life
  // of the process) at the first Current(), with `start_ns` as step 0's start.
  static void Plan(const Config* config, uint64_t start_ns);

  // In a forked child, from the atfork handler (atomics only): forget the parent's
  // session, and build the child's own from its configuration on first use.
  static void DeferForChild();
  // Whether `config`'s schedule records step 0: the child's hooks must take the recording
  // path before its session exists, so that its first recorded call builds it.
  static bool ScheduleRecordsFirstStep(const Config& config);

  const Config& config() const { return config_; }
  StepController& steps() { return *steps_; }
  TraceWriter& writer() { return *writer_; }

  // Starts the writer if a window is waiting (idempotent; not during library loading).
  void Start() { steps_->Start(); }

  // At exit: ends the current step, closes the window and finishes the files within
  // the time bound. Idempotent.
  void Shutdown();

  // Counts a PROF_STEP_MARKER api call; true when it ends a step.
  bool CountMarkerCall();

 private:
  static Session* CreateDeferred();
  // On the writer thread (TraceWriter::SetControlPoll): demand windows' deadlines and
  // on-demand triggers (control/trigger.h). Returns whether a demand window's end time is
  // ahead (TraceWriter::SetControlPoll).
  bool PollControl(uint64_t now_ns);

  static std::atomic<Session*> current_;
  static std::atomic<Session*> deferred_parent_;  // a forked child's parent's session
  static std::atomic<const Config*> planned_;     // what the first Current() builds from
  static uint64_t planned_start_ns_;              // written before planned_ is published
  static std::atomic<bool> planned_for_child_;    // a child of a parent that built none

  const Config config_;
  std::unique_ptr<TraceWriter> writer_;
  std::unique_ptr<StepController> steps_;
  std::atomic<bool> shut_down_{false};
  std::atomic<int64_t> marker_calls_{0};
  std::string control_folder_;          // where triggers are looked for
  uint64_t next_trigger_check_ns_ = 0;  // writer thread only
  bool warned_trigger_ = false;         // writer thread only
  // In a forked child's session, the parent's: never used nor freed after the fork (its
  // writer thread does not exist here), only kept reachable so that it is not a leak.
  Session* forked_from_ = nullptr;
};

// Builds the trace header shared by every window file of this process.
FileHeaderValue MakeProcessHeader(const Config& config);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_SESSION_H_
