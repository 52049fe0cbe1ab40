// The writer thread: its start (with every signal blocked) and its passes. Each pass waits
// for the drain period or the doorbell, runs the queued commands, drains the threads'
// buffers and the device records, and finishes the windows that are due.
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>

#include <chrono>
#include <mutex>

#include "agent/control/log.h"
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
void TraceWriter::WaitForWork(bool busy) {
  if (!commands_.empty() || StoppingRequested()) return;
  const auto period = busy ? kBusyDrainPeriod : kIdleDrainPeriod;
  TheWriterDoorbell().Wait(std::chrono::nanoseconds(period).count());
}

void TraceWriter::Run() {
  prctl(PR_SET_NAME, "prof-writer", 0, 0, 0);
  uint64_t drained_before = 0;
  uint64_t flush = 0;  // the Flush() being served (0: none)
  while (true) {
    const bool busy = records_drained_ - drained_before > kBusyRecords || flush != 0;
    drained_before = records_drained_;
    WaitForWork(busy);
    const bool stopping = TakeRequests(&flush);
    // Before taking the commands: every window command stamped before `horizon` is then in
    // hand, so the records drained up to it find their window (drain_horizon.h); newer ones
    // wait for the next pass. At exit everything is drained.
    RefineHostClock();  // fits the TSC to CLOCK_MONOTONIC (host_clock_calibration.h)
    const uint64_t horizon = stopping ? kDrainEverything : horizon_.Advance();
    commands_.TakeAll(&taken_commands_);
    RunCommands(taken_commands_, horizon);
    taken_commands_.clear();
    ParkIfAbandoned();
    DrainHostRecords(horizon);
    ParkIfAbandoned();
    if (device_enabled_) device_->Drain(*this);
    ParkIfAbandoned();
    if (EmergencyFlushRequested()) {
      // A terminating signal: the process ends as soon as we acknowledge. The flight dump
      // first: it is small, and the one file a hung rank's post-mortem needs.
      if (flight_) flight_->Dump(SignalReason(EmergencyFlushSignal()), "", MonotonicNs());
      DrainHostRecords(kDrainEverything);
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
    if (control_poll_) control_poll_(MonotonicNs());
    if (flight_) flight_->Poll(MonotonicNs());
  }
  Log(LogLevel::kDebug, "writer: %lu records drained",
      static_cast<unsigned long>(records_drained_));
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = true;
  flushes_done_ = flushes_asked_;
  finished_.notify_all();
}

}  // namespace prof
