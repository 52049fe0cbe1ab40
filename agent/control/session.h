// Everything the agent runs in one process: the configuration, the writer and the step
// controller. Created by the library constructor (no threads, no files, no CUDA then);
// the writer thread starts at the first recorded event or step. After fork() the child
// gets a fresh session of its own (see lifecycle.cc).
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

  // The process's session; nullptr when the agent is disabled or not yet initialized.
  static Session* Current() { return current_.load(std::memory_order_acquire); }
  static void Install(Session* session) { current_.store(session, std::memory_order_release); }

  const Config& config() const { return config_; }
  StepController& steps() { return *steps_; }

  // Starts the writer if a window is waiting (idempotent; not during library loading).
  void Start() { steps_->Start(); }

  // At exit: ends the current step, closes the window and finishes the files within
  // the time bound. Idempotent.
  void Shutdown();

  // Counts a PROF_STEP_MARKER api call; true when it ends a step.
  bool CountMarkerCall();

 private:
  static std::atomic<Session*> current_;

  const Config config_;
  std::unique_ptr<TraceWriter> writer_;
  std::unique_ptr<StepController> steps_;
  std::atomic<bool> shut_down_{false};
  std::atomic<int64_t> marker_calls_{0};
};

// Builds the trace header shared by every window file of this process.
trace::FileHeader MakeProcessHeader(const Config& config);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_SESSION_H_
