// The writer thread: its start (with every signal blocked) and its passes. Each pass waits
// for the drain period or the doorbell, runs the queued commands, drains the threads'
// buffers and the device records, and finishes the windows that are due.
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>

#include <chrono>
#include <mutex>

#include "agent/control/log.h"
#include "agent/record/chunk_pool.h"
#include "agent/record/host_clock_calibration.h"
#include "agent/record/clock.h"
#include "agent/record/writer_doorbell.h"
#include "agent/writer/emergency_flush.h"
#include "agent/writer/terminating_signals.h"
#include "agent/writer/trace_writer.h"

namespace prof {
namespace {

// The writer drains every 10 ms, and every 4 ms while records flow fast; sooner when a
// thread's buffer passes its high-water mark (thread_buffer.h) and rings the doorbell.
// Batching: no record wakes the writer by itself; at a high rate the mark, not this timer,
// paces it (1 MiB a thread at the default budget: ~2.3 ms of launches at 4M/s, about 9,300
// records a pass), so a pass's fixed cost (a futex wait and its context switches, the
// clock refinement, the commands, the control poll: ~18 us under a VM) is spread over
// thousands of records. 1 ms here cost the writer ~7 ns more CPU per launch on
// launch_stress (perf record, median of 3: 73.1 -> 66.2 ns). Nothing waits on this period:
// Flush, Shutdown, terminating signals and CUPTI hand-overs ring the doorbell, and a closed
// window is finished at the first pass after its grace (at most the 10 ms idle period
// later, as before).
constexpr auto kIdleDrainPeriod = std::chrono::milliseconds(10);
constexpr auto kBusyDrainPeriod = std::chrono::milliseconds(4);
constexpr uint64_t kBusyRecords = 2000;
// Deep idle: after this many passes in a row that found nothing (no record, no command, no
// window closing, no Flush, no demand deadline ahead, no flight recorder or CUPTI to
// serve), the writer sleeps kDeepIdlePeriod instead. An idle pass costs ~40 us of CPU under
// a VM (the futex wait and its context switches, the buffer walk, the control poll): while
// a program waits on its GPU, 100 of them a second. Queued commands ring it awake
// (TraceWriter::Queue), records wake it at their buffer's mark as always, and a record that
// comes alone waits in its buffer up to this period before it is drained.
constexpr int kIdlePassesBeforeDeep = 5;
constexpr auto kDeepIdlePeriod = std::chrono::milliseconds(50);

// "signal SIGTERM": a flight dump's reason.
std::string SignalReason(int signal_number) {
  switch (signal_number) {
    case SIGTERM: return "signal SIGTERM";
    case SIGHUP: return "signal SIGHUP";
    case SIGABRT: return "signal SIGABRT";
    default: return "signal " + std::to_string(signal_number);
  }
}

}  // namespace

// Called with mutex_ held.
void TraceWriter::EnsureThread() {
  if (thread_started_ || stopping_) return;
  // The writer must not run the program's signal handlers: block everything while the
  // thread is created so it inherits a full mask.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  // pthread_create rather than std::thread: a failure must be a return value here, never
  // an exception in the host program.
  pthread_t thread;
  const int error = pthread_create(
      &thread, nullptr,
      [](void* writer) -> void* {
        static_cast<TraceWriter*>(writer)->Run();
        return nullptr;
      },
      this);
  if (error == 0) {
    pthread_detach(thread);
    thread_started_ = true;
    thread_started_flag_.store(true, std::memory_order_release);
    // From now on a terminating signal waits for this thread, even if it has not run yet.
    MarkWriterRunning(true);
    // The session's start, long after the program's (terminating_signals.h); a process
    // that ends before the writer's first pass (an early abort) still has its flush.
    InstallTerminationFlush();
  } else {
    Log(LogLevel::kWarn, "cannot start the writer thread; nothing will be recorded");
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void TraceWriter::StartThreadForPoll() {
  if ((!control_poll_ && !flight_) || thread_started_flag_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  EnsureThread();
}

bool TraceWriter::StoppingRequested() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

// Sleeps until the period ends or the doorbell rings: a command that needs the writer
// now, Shutdown, Flush(), or a thread's buffer passing its high-water mark (thread_buffer.h).
void TraceWriter::WaitForWork(bool busy, bool deep) {
  // The flag first: a command pushed after this store rings (Queue); one pushed before it
  // is seen by the check below.
  if (deep) deep_idle_.store(true, std::memory_order_seq_cst);
  if (!commands_.empty() || StoppingRequested()) {
    deep_idle_.store(false, std::memory_order_relaxed);
    return;
  }
  const auto period = deep ? kDeepIdlePeriod : busy ? kBusyDrainPeriod : kIdleDrainPeriod;
  TheWriterDoorbell().Wait(std::chrono::nanoseconds(period).count());
  deep_idle_.store(false, std::memory_order_relaxed);
}

bool TraceWriter::PassWasIdle(uint64_t drained_before, size_t commands, uint64_t flush,
                              bool poll_needs_period) {
  return records_drained_ == drained_before && commands == 0 && flush == 0 && !poll_needs_period &&
         !flight_ && !device_enabled_ && !AnyWindowClosing();
}

void TraceWriter::Run() {
  prctl(PR_SET_NAME, "prof-writer", 0, 0, 0);
  uint64_t drained_before = 0;
  uint64_t flush = 0;  // the Flush() being served (0: none)
  int idle_passes = 0;
  bool poll_needs_period = false;
  while (true) {
    const bool busy = records_drained_ - drained_before > kBusyRecords || flush != 0;
    drained_before = records_drained_;
    WaitForWork(busy, idle_passes >= kIdlePassesBeforeDeep);
    const bool stopping = TakeRequests(&flush);
    // Before taking the commands: every window command stamped before `horizon` is then in
    // hand, so the records drained up to it find their window (drain_horizon.h); newer ones
    // wait for the next pass. At exit everything is drained.
    RefineHostClock();  // fits the TSC to CLOCK_MONOTONIC (host_clock_calibration.h)
    const uint64_t horizon = stopping ? kDrainEverything : horizon_.Advance();
    commands_.TakeAll(&taken_commands_);
    RunCommands(taken_commands_, horizon);
    const size_t commands_run = taken_commands_.size();
    taken_commands_.clear();
    ParkIfAbandoned();
    DrainHostRecords(horizon);
    TheChunkPool().PrefaultFresh();  // the next fresh chunks' faults, here (chunk_pool.h)
    ParkIfAbandoned();
    if (device_enabled_) device_->Drain(*this);
    ParkIfAbandoned();
    if (EmergencyFlushRequested()) {
      // A terminating signal: the process ends as soon as we acknowledge. The flight dump
      // first: it is small, and the one file a hung rank's post-mortem needs.
      if (flight_) flight_->Dump(SignalReason(EmergencyFlushSignal()), "", MonotonicNs());
      DrainHostRecords(kDrainEverything);
      const uint64_t signalled_ns = MonotonicNs();
      for (auto& window : windows_) window->AddStepOpenAtSignal(signalled_ns);
      FinishWindows(true);
      AcknowledgeEmergencyFlush();
      break;
    }
    FinishWindows(stopping, flush != 0);
    CompleteFlush(&flush);
    // Also on the last pass: a rank whose NCCL call failed usually exits right after.
    if (flight_) flight_->DumpOnNcclError(MonotonicNs());
    if (stopping) break;
    // Outside every lock: the poll may queue window commands (through the step controller).
    if (control_poll_) poll_needs_period = control_poll_(MonotonicNs());
    if (flight_) flight_->Poll(MonotonicNs());
    idle_passes =
        PassWasIdle(drained_before, commands_run, flush, poll_needs_period) ? idle_passes + 1 : 0;
  }
  Log(LogLevel::kDebug, "writer: %lu records drained",
      static_cast<unsigned long>(records_drained_));
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = true;
  flushes_done_ = flushes_asked_;
  finished_.notify_all();
}

}  // namespace prof
