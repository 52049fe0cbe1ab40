#include "agent/writer/trace_writer.h"

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "agent/control/log.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/clock.h"
#include "agent/record/host_clock_calibration.h"
#include "agent/record/cpu_sample.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/writer_doorbell.h"
#include "agent/record/host_rss.h"
#include "agent/writer/emergency_flush.h"
#include "agent/writer/host_losses.h"
#include "agent/writer/terminating_signals.h"

namespace prof {
namespace {

// The writer drains every 10 ms, and every 1 ms while records flow fast; sooner when a
// thread's buffer passes its high-water mark (thread_buffer.h) and rings the doorbell.
constexpr auto kIdleDrainPeriod = std::chrono::milliseconds(10);
constexpr auto kBusyDrainPeriod = std::chrono::milliseconds(1);
constexpr uint64_t kBusyRecords = 2000;
constexpr uint64_t kFlushPeriodNs = 100000000;   // a crash loses at most ~100 ms
constexpr uint64_t kChunkEvents = 65536;         // or this many events, whichever first
constexpr auto kParkWait = std::chrono::milliseconds(200);  // after an exit timeout
constexpr uint64_t kCloseGraceNs = 30000000;     // late records of a closed window

CpuUsageValue CpuUsageOf(const CpuSample& sample) {
  CpuUsageValue usage;
  usage.host_monotonic_ns = sample.host_ns;
  usage.process_cpu_ns = sample.process_cpu_ns;
  usage.system_known = sample.system_known;
  usage.system_busy_ticks = sample.busy_ticks;
  usage.system_idle_ticks = sample.idle_ticks;
  return usage;
}

ClockAnchorValue HostAnchor(const char* reason) {
  ClockAnchorValue anchor;
  const uint64_t before = MonotonicNs();
  anchor.host_realtime_ns = RealtimeNs();
  const uint64_t after = MonotonicNs();
  anchor.host_monotonic_ns = before + (after - before) / 2;
  anchor.uncertainty_ns = (after - before) / 2;
  anchor.reason = reason;
  return anchor;
}

// The kernel's name of a thread of this process ("python3", "pt_autograd_0", ...).
std::string ThreadNameOf(uint64_t thread_id) {
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/self/task/%llu/comm",
                static_cast<unsigned long long>(thread_id));
  std::ifstream file(path);
  std::string name;
  std::getline(file, name);
  return name;
}

}  // namespace

TraceWriter::TraceWriter(const Config& config, FileHeaderValue header,
                         std::unique_ptr<DeviceActivitySource> device)
    : config_(config),
      header_(std::move(header)),
      device_(std::move(device)),
      converter_([this](uint32_t index) { return WindowByIndex(index); }, &ReadHostRssBytes) {
  taken_commands_.reserve(2 * kRingCommands);
}

TraceWriter::~TraceWriter() = default;

std::string TraceWriter::PathOf(uint32_t index) const {
  return config_.output_dir + "/" + config_.worker_name + ".window_" + std::to_string(index) +
         ".prof.pb";
}

// The producer side runs on the program's threads at step boundaries, one at a time (see
// trace_writer.h). Nothing here waits for the writer, except once: the process's first
// command starts the writer thread (EnsureThread, under mutex_) if the session's start did
// not. A stalled writer's full ring is command_queue.h's business (an overflow list).
void TraceWriter::Queue(const Command& command) {
  if (!thread_started_flag_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(mutex_);
    EnsureThread();
  }
  commands_.Push(command);
}

// Wakes the writer without waiting for it or taking a lock (writer_doorbell.h): a ring is
// never missed, it ends the writer's next wait at once.
void TraceWriter::WakeWriter() { TheWriterDoorbell().Ring(); }

// Window commands do not wake the writer (a futex call, and often a switch to the writer
// on this CPU): records find their window by time and wait in their buffers meanwhile, so
// the writer's next periodic pass (10 ms at most, 1 ms while busy) is soon enough.
void TraceWriter::OpenWindow(const WindowSpec& spec) { Queue({Command::kOpen, spec, spec.open_ns}); }

void TraceWriter::CloseWindow(uint64_t close_ns) {
  Queue({Command::kClose, {}, close_ns, /*split=*/false});
}

void TraceWriter::SplitWindow(uint64_t split_ns, const WindowSpec& next) {
  Queue({Command::kClose, next, split_ns, /*split=*/true});
  Queue({Command::kOpen, next, next.open_ns});
}

// Device commands wake the writer: subscribing should be done within the READY step (no
// wait, though: see step_controller.h on READY), and after a window the program should
// stop paying for CUPTI at once.
uint64_t TraceWriter::SetDeviceEnabled(bool enabled) {
  Queue({enabled ? Command::kEnableDevice : Command::kDisableDevice, {}, 0});
  WakeWriter();
  return ++device_commands_sent_;
}

void TraceWriter::EnableDeviceNow() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_started_ && !stopping_) {
      // No writer thread yet: nothing else touches the device source.
      if (!device_enabled_ && device_) device_enabled_ = device_->Enable();
      return;
    }
  }
  SetDeviceEnabled(true);
}

// Writer thread. A window that opened before the subscription (see step_controller.h on
// READY) has no device records for its launches before it: its file gets the anchor taken
// when the subscription took effect, so a reader knows from when device activity is whole,
// and the first such window of the process a warning.
void TraceWriter::NoteLateDevice(WindowFile& window) {
  if (!device_enabled_ || window.spec().open_ns >= device_enabled_at_ns_) return;
  window.encoder().AddClockAnchor(device_subscribed_anchor_);
  if (warned_late_device_) return;
  warned_late_device_ = true;
  // A schedule without a READY step asked for this: said at info level only.
  Log(config_.schedule.ready > 0 ? LogLevel::kWarn : LogLevel::kInfo, "device activity was subscribed %.1f ms after window %u opened; its "
                       "launches before then have no device records (a longer READY step "
                       "avoids this)",
      (device_enabled_at_ns_ - window.spec().open_ns) / 1e6, window.spec().index);
}

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

bool TraceWriter::StoppingRequested() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

void TraceWriter::Run() {
  prctl(PR_SET_NAME, "prof-writer", 0, 0, 0);
  uint64_t drained_before = 0;
  uint64_t flush = 0;  // the Flush() being served (0: none)
  while (true) {
    bool stopping = false;
    const bool busy = records_drained_ - drained_before > kBusyRecords || flush != 0;
    drained_before = records_drained_;
    // Sleeps until the period ends or the doorbell rings: a command that needs the writer
    // now, Shutdown, Flush(), or a thread's buffer passing its high-water mark (thread_buffer.h).
    if (commands_.empty() && !StoppingRequested()) {
      const auto period = busy ? kBusyDrainPeriod : kIdleDrainPeriod;
      TheWriterDoorbell().Wait(std::chrono::nanoseconds(period).count());
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping = stopping_;
      if (flushes_asked_ > flushes_taken_) flush = flushes_taken_ = flushes_asked_;
    }
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
      // A terminating signal: the process ends as soon as we acknowledge.
      DrainHostRecords(kDrainEverything);
      FinishWindows(true);
      AcknowledgeEmergencyFlush();
      break;
    }
    FinishWindows(stopping, flush != 0);
    if (flush != 0 && !AnyWindowClosing()) {
      std::lock_guard<std::mutex> lock(mutex_);
      flushes_done_ = flush;
      flush = 0;
      finished_.notify_all();
    }
    if (stopping) break;
    // Outside every lock: the poll may queue window commands (through the step controller).
    if (control_poll_) control_poll_(MonotonicNs());
  }
  Log(LogLevel::kDebug, "writer: %lu records drained", static_cast<unsigned long>(records_drained_));
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = true;
  flushes_done_ = flushes_asked_;
  finished_.notify_all();
}

void TraceWriter::StartThreadForPoll() {
  if (!control_poll_ || thread_started_flag_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  EnsureThread();
}

bool TraceWriter::Flush(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!thread_started_ || done_) return true;  // no thread: no window was ever handed over
  const uint64_t ticket = ++flushes_asked_;
  TheWriterDoorbell().Ring();  // rings are never lost: the writer's next Wait returns at once
  return finished_.wait_for(lock, std::chrono::nanoseconds(timeout_ns),
                            [this, ticket] { return flushes_done_ >= ticket || done_; });
}

// Writer thread.
bool TraceWriter::AnyWindowClosing() const {
  for (const auto& window : windows_) {
    if (window->closing) return true;
  }
  return false;
}

namespace {

// The earliest opening time among the windows that commands[after + 1...] open, or
// kDrainEverything when they open none.
template <typename Command>
uint64_t FirstOpenAfter(const std::vector<Command>& commands, size_t after) {
  uint64_t first = kDrainEverything;
  for (size_t i = after + 1; i < commands.size(); ++i) {
    if (commands[i].kind == Command::kOpen) first = std::min(first, commands[i].spec.open_ns);
  }
  return first;
}

}  // namespace

// CPU readings: a window's opening and closing readings are taken here, when the writer
// handles the boundary (within one drain period of the step's timestamp: 10 ms when idle,
// 1 ms when busy, sooner when a device command woke it; later if it is stalled), not on
// the program's thread. Each reading carries its own host time, and the analyzer divides by
// the readings' own interval, so the CPU ratios stay exact; they cover the window shifted
// by that delay. A split's closing and opening readings are one reading.
void TraceWriter::RunCommands(std::vector<Command>& commands, uint64_t horizon) {
  for (size_t i = 0; i < commands.size(); ++i) {
    Command& command = commands[i];
    // Host records go to windows by their start time (WindowAt), and a closed window takes
    // late records until it is finalized, so opening and closing need no drain first: the
    // writer handles a command some time after the step controller issued it, and the
    // buffers may already hold records made after it (the first Dataloader range of a new
    // window, or of the next file of a split window). Unsubscribing drains first: the
    // device records it flushes find their window through the API calls' correlation ids;
    // that drain stops before the windows this batch has yet to open (their records would
    // go to the previous window). Subscribing does not wait for a drain (READY's step may
    // be short).
    if (command.kind == Command::kDisableDevice) {
      DrainHostRecords(std::min(horizon, FirstOpenAfter(commands, i)));
    }
    switch (command.kind) {
      case Command::kOpen: {
        Log(LogLevel::kDebug, "writer: window %u opens at %lu", command.spec.index,
            static_cast<unsigned long>(command.spec.open_ns));
        // Here, not in the constructor: the program and its runtime have started and
        // installed whatever handlers they wanted (terminating_signals.h).
        InstallTerminationFlush();
        if (!command.spec.open_cpu.valid) command.spec.open_cpu = SampleCpu();
        FileHeaderValue header = header_;
        header.clock_anchors.push_back(HostAnchor("window open"));
        if (command.spec.open_cpu.valid) header.cpu_usage.push_back(CpuUsageOf(command.spec.open_cpu));
        if (device_enabled_) header.clock_anchors.push_back(device_->Anchor("window open"));
        windows_.push_back(std::make_unique<WindowFile>(command.spec, PathOf(command.spec.index),
                                                        header, config_.files_need_cuda_activity));
        windows_.back()->encoder().SetProcess(ThreadNameOf(getpid()), getppid());
        NoteLateDevice(*windows_.back());
        break;
      }
      case Command::kClose: {
        Log(LogLevel::kDebug, "writer: windows close at %lu",
            static_cast<unsigned long>(command.time_ns));
        const CpuSample cpu = SampleCpu();
        if (command.split && i + 1 < commands.size() && commands[i + 1].kind == Command::kOpen) {
          commands[i + 1].spec.open_cpu = cpu;  // SplitWindow queued both together
        }
        for (auto& window : windows_) {
          if (window->closing) continue;
          window->closing = true;
          window->close_ns = command.time_ns;
          window->continued = command.split;
          window->continued_in = command.spec.index;
          window->close_cpu = cpu;
          window->finalize_after_ns = MonotonicNs() + kCloseGraceNs;
        }
        break;
      }
      case Command::kEnableDevice:
      case Command::kDisableDevice:
        RunDeviceCommand(command.kind == Command::kEnableDevice);
        break;
    }
  }
}

// Subscribing is where CUPTI's cost lies (dlopen, cuptiSubscribe, activity buffers): it runs
// here, never on a program thread, and is acknowledged through device_commands_done_. In a
// process that has not loaded CUDA yet, it is deferred to the first CUDA call, which asks
// again (cuda_presence.h); both the deferral and its cancellation happen here, in command
// order. A window that opened before the subscription (a READY step shorter than it, a
// stalled writer, ready=0, CUDA loaded late) lacks its earlier launches' device records:
// NoteLateDevice says so in its file.
void TraceWriter::RunDeviceCommand(bool enable) {
  if (enable && !device_enabled_ && device_) {
    if (!CudaLibraryLoaded()) {
      internal::g_device_deferred.store(true);
    } else {
      device_enabled_ = device_->Enable();
      if (device_enabled_) {
        device_subscribed_anchor_ = device_->Anchor("device activity subscribed");
        device_enabled_at_ns_ = MonotonicNs();
        for (const auto& window : windows_) {
          if (!window->closing) NoteLateDevice(*window);
        }
      }
    }
  } else if (!enable) {
    internal::g_device_deferred.store(false);
    if (device_enabled_) {
      device_->Flush(true);
      device_->Drain(*this);
      device_->Disable();
      device_enabled_ = false;
    }
  }
  device_commands_done_.fetch_add(1, std::memory_order_release);
}

void TraceWriter::DrainHostRecords(uint64_t before_ns) {
  // With no window open, records wait in their buffers for the next one rather than being
  // thrown away (a record can be made just before its window is handed to the writer).
  if (windows_.empty()) return;
  drained_before_ns_ = before_ns;
  ForEachBuffer([this, before_ns](ThreadBuffer& buffer) {
    const uint64_t thread_id = buffer.thread_id();
    if (!buffer.empty()) NameThread(thread_id, *windows_.back());
    records_drained_ += buffer.DrainBefore(before_ns, [&](const Record& record) {
      converter_.Add(thread_id, record, *WindowAt(record.start_ns));
    });
    ReportHostLosses(&buffer, *windows_.back());
    buffer.ReleaseIfExited();  // its chunk back to the pool, the buffer to a new thread
  });
  ReportHostLosses(nullptr, *windows_.back());
}

void TraceWriter::FinishWindows(bool everything, bool flushing) {
  const uint64_t now = MonotonicNs();
  const bool periodic = now - last_flush_ns_ >= kFlushPeriodNs;
  if (periodic) last_flush_ns_ = now;
  // A closed window's grace is measured up to where records were drained, not up to now:
  // its records that waited beyond the drain horizon (drain_horizon.h) still reach it.
  const uint64_t drained = std::min(now, drained_before_ns_);
  // A closed window is finished once drained past its grace, or past its end when flushing.
  auto due = [drained, flushing](const WindowFile& window) {
    return window.closing && drained >= (flushing ? window.close_ns : window.finalize_after_ns);
  };
  const bool finishing_any = everything || (!windows_.empty() && due(*windows_.front()));
  if (finishing_any && device_enabled_) {
    device_->Flush(true);  // may wait on CUPTI: an exit timeout can pass meanwhile
    ParkIfAbandoned();
    device_->Drain(*this);
  }
  while (!windows_.empty()) {
    ParkIfAbandoned();
    WindowFile& window = *windows_.front();
    const bool finish = everything || due(window);
    if (!finish) break;
    if (!window.closing) window.close_ns = now;
    if (window.continued) {
      converter_.MoveOpenRanges(window.spec().index, window.continued_in);
    } else {
      converter_.CloseOpenRanges(window);
    }
    window.encoder().AddClockAnchor(HostAnchor("window close"));
    window.encoder().AddCpuUsage(CpuUsageOf(window.close_cpu.valid ? window.close_cpu : SampleCpu()));
    if (device_enabled_) window.encoder().AddClockAnchor(device_->Anchor("window close"));
    window.Finish();
    finished_windows_.Note(window.spec().index, window.wrote_file() ? window.path() : "");
    converter_.ForgetWindow(window.spec().index);
    windows_.pop_front();
  }
  for (auto& window : windows_) {
    ParkIfAbandoned();
    if (periodic || window->encoder().pending_events() >= kChunkEvents) window->Flush(false);
  }
}

void TraceWriter::NameThread(uint64_t thread_id, WindowFile& window) {
  if (!window.named_threads.insert(thread_id).second) return;
  const std::string name = ThreadNameOf(thread_id);
  if (!name.empty()) window.encoder().SetThreadName(thread_id, name);
}

WindowFile* TraceWriter::WindowAt(uint64_t host_time_ns) {
  if (windows_.empty()) return nullptr;
  for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
    if ((*it)->spec().open_ns <= host_time_ns) return it->get();
  }
  return windows_.front().get();
}

WindowFile* TraceWriter::WindowByIndex(uint32_t index) {
  for (auto& window : windows_) {
    if (window->spec().index == index) return window.get();
  }
  return nullptr;
}

WindowFile* TraceWriter::WindowFor(uint64_t correlation_id, uint64_t host_time_ns) {
  if (correlation_id != 0 && !windows_.empty()) {
    // Launched before the first window's first recorded call: READY-step warm-up activity,
    // discarded by design (CUPTI is subscribed a step early so the window starts warm).
    const WindowFile& first = *windows_.front();
    if (first.min_correlation_id != 0 && correlation_id < first.min_correlation_id &&
        host_time_ns < first.spec().open_ns) {
      return nullptr;
    }
    for (auto& window : windows_) {
      if (correlation_id <= window->max_correlation_id) return window.get();
    }
    // Launched after the last window closed, while CUPTI was still subscribed (the writer
    // unsubscribes when it handles the command, some time after the step boundary).
    const WindowFile& last = *windows_.back();
    if (last.closing && !last.continued && host_time_ns > last.close_ns) return nullptr;
  }
  return WindowAt(host_time_ns);
}

bool TraceWriter::Shutdown(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!thread_started_) {
    // Nothing ever opened a window, or the thread could not start: finish inline.
    std::vector<Command> commands;
    stopping_ = true;
    lock.unlock();
    commands_.TakeAll(&commands);
    RunCommands(commands, kDrainEverything);
    DrainHostRecords(kDrainEverything);
    FinishWindows(true);
    return true;
  }
  stopping_ = true;
  TheWriterDoorbell().Ring();
  if (finished_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), [this] { return done_; })) {
    return true;
  }
  // Out of time. Static destructors run once we return, so the writer must stop touching
  // anything: it parks at its next check (between chunks, buffers and commands), and we
  // wait for that, briefly. The files end at their last complete chunk.
  abandon_.store(true, std::memory_order_release);
  finished_.wait_for(lock, kParkWait, [this] { return done_ || parked_; });
  return false;
}

void TraceWriter::ParkIfAbandoned() {
  if (!abandon_.load(std::memory_order_acquire)) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    parked_ = true;
    finished_.notify_all();
  }
  // Blocks for good: this thread has every signal blocked, and the process is exiting.
  for (;;) pause();
}

}  // namespace prof
